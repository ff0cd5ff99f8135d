// SPDX-License-Identifier: MIT

#include "routes/lft_file.hpp"

#include <charconv>
#include <cstdint>
#include <fstream>
#include <sstream>

#include "base/atomic_file.hpp"
#include "base/regular_file.hpp"
#include "layout/state_layout.hpp"

namespace ibpm::routes {

namespace {

constexpr char kMagic[] = "ibpm-lft";
// The longest header line, and the longest switch line: 49,152 unicast LIDs of two digits.
constexpr std::size_t kMaxHeaderLine = 64;
constexpr std::size_t kMaxSwitchLine = 64 + 2 * 0xc000;
constexpr char kHex[] = "0123456789abcdef";

int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

template <typename T>
bool parse_decimal(const std::string& text, T& value) {
  const char* end = text.data() + text.size();
  auto [p, ec] = std::from_chars(text.data(), end, value);
  return ec == std::errc{} && p == end;
}

}  // namespace

std::string lft_file_path(const std::string& state_dir) {
  return layout::StateLayout(state_dir).routes();
}

void write_lft_file(const std::string& path, const ForwardingTables& tables) {
  base::replace_file_with(path, [&](std::ostream& out) {
    out << kMagic << ' ' << kLftFileVersion << ' ' << tables.switches.size() << '\n'
        << "read_at " << tables.read_at << '\n';
    std::string hex;
    for (const auto& [guid, table] : tables.switches) {
      hex.clear();
      hex.reserve(table.ports.size() * 2);
      for (PortNumber port : table.ports) {
        hex.push_back(kHex[port >> 4]);
        hex.push_back(kHex[port & 0xf]);
      }
      out << "switch " << format_guid(guid) << ' ' << table.lid << ' ' << hex << '\n';
    }
    out << "end " << tables.switches.size() << '\n';
  });
}

ForwardingTables read_lft_file(const std::string& path) {
  std::string text;
  std::size_t switch_count = 0;
  std::size_t number = 1;
  auto fail = [&](const std::string& why) -> LftFileError {
    return LftFileError(path + " line " + std::to_string(number) + ": " + why);
  };
  try {
    const base::FileDescriptor file(
        base::open_existing_regular_file(path, base::FinalLink::follow));
    if (file.fd < 0)
      throw LftFileError("no forwarding tables in " + path +
                         " (read them with ibpm-routes --refresh)");
    // The header first: it says how large the file may be, before the rest is read.
    const std::uint64_t size = base::file_size(file.fd);
    if (size == 0) throw LftFileError(path + " is empty");
    const std::string head = base::read_bytes(file.fd, 0, kMaxHeaderLine, path);
    std::istringstream fields(head.substr(0, head.find('\n')));
    std::string key, version_text, count_text;
    fields >> key >> version_text >> count_text;
    int version = 0;
    if (key != kMagic || !parse_decimal(version_text, version))
      throw fail("not an ibpm forwarding table file");
    if (version != kLftFileVersion)
      throw fail("format version " + version_text + ", this ibpm reads version " +
                 std::to_string(kLftFileVersion) + " (read them again with ibpm-routes --refresh)");
    if (!parse_decimal(count_text, switch_count) || switch_count >= 0xc000)
      throw fail("bad switch count '" + count_text + "'");
    const std::uint64_t largest = 3 * kMaxHeaderLine + switch_count * kMaxSwitchLine;
    if (size > largest)
      throw LftFileError(path + ": " + std::to_string(size) + " bytes, more than " +
                         std::to_string(switch_count) + " switches' tables take");
    text = base::read_bytes(file.fd, 0, static_cast<std::size_t>(size), path);
  } catch (const LftFileError&) {
    throw;
  } catch (const std::runtime_error& e) {
    throw LftFileError(e.what());
  }
  std::istringstream in(text);
  ForwardingTables tables;
  std::string line;
  number = 0;
  bool read_at = false, end = false;
  std::getline(in, line);  // the header, read above
  ++number;
  while (std::getline(in, line)) {
    ++number;
    std::istringstream fields(line);
    std::string key, a, b, c, extra;
    fields >> key >> a >> b >> c >> extra;
    if (end) {
      if (!key.empty()) throw fail("'" + key.substr(0, 40) + "' after the end line");
    } else if (key == "end") {
      std::size_t count = 0;
      if (!parse_decimal(a, count) || !b.empty() || count != switch_count ||
          count != tables.switches.size())
        throw fail("the end line says " + a + " switches; the header says " +
                   std::to_string(switch_count) + ", the file holds " +
                   std::to_string(tables.switches.size()));
      end = true;
    } else if (key == "read_at") {
      if (!parse_decimal(a, tables.read_at) || !b.empty()) throw fail("bad read_at");
      read_at = true;
    } else if (key == "switch") {
      const auto guid = parse_guid(a);
      unsigned lid = 0;
      if (!guid || !parse_decimal(b, lid) || lid == 0 || lid >= 0xc000 || !extra.empty() ||
          c.size() % 2 != 0 || c.empty())
        throw fail("bad switch line");
      SwitchTable table;
      table.node = *guid;
      table.lid = static_cast<Lid>(lid);
      table.ports.reserve(c.size() / 2);
      for (std::size_t i = 0; i < c.size(); i += 2) {
        const int hi = hex_digit(c[i]), lo = hex_digit(c[i + 1]);
        if (hi < 0 || lo < 0) throw fail("bad egress port '" + c.substr(i, 2) + "'");
        table.ports.push_back(static_cast<PortNumber>(hi * 16 + lo));
      }
      if (!tables.switches.emplace(table.node, std::move(table)).second)
        throw fail("switch " + a + " listed twice");
    } else if (!key.empty()) {
      throw fail("unknown record '" + key.substr(0, 40) + "'");
    }
  }
  if (!read_at) throw LftFileError(path + ": no read_at line (file cut short?)");
  if (!end) throw LftFileError(path + ": no end line (file cut short?)");
  return tables;
}

}  // namespace ibpm::routes
