// SPDX-License-Identifier: MIT

#include "routes/lft_file.hpp"

#include <charconv>
#include <fstream>
#include <sstream>

#include "base/atomic_file.hpp"

namespace ibpm::routes {

namespace {

constexpr char kMagic[] = "ibpm-lft";
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

std::string lft_file_path(const std::string& state_dir) { return state_dir + "/routes.lft"; }

void write_lft_file(const std::string& path, const ForwardingTables& tables) {
  base::replace_file_with(path, [&](std::ostream& out) {
    out << kMagic << ' ' << kLftFileVersion << '\n' << "read_at " << tables.read_at << '\n';
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
  });
}

ForwardingTables read_lft_file(const std::string& path) {
  std::ifstream in(path);
  if (!in)
    throw LftFileError("no forwarding tables in " + path +
                       " (read them with ibpm-routes --refresh)");
  ForwardingTables tables;
  std::string line;
  std::size_t number = 0;
  auto fail = [&](const std::string& why) -> LftFileError {
    return LftFileError(path + " line " + std::to_string(number) + ": " + why);
  };
  bool header = false, read_at = false;
  while (std::getline(in, line)) {
    ++number;
    std::istringstream fields(line);
    std::string key, a, b, c, extra;
    fields >> key >> a >> b >> c >> extra;
    if (!header) {
      int version = 0;
      if (key != kMagic || !parse_decimal(a, version))
        throw fail("not an ibpm forwarding table file");
      if (version != kLftFileVersion)
        throw fail("format version " + a + ", this ibpm reads version " +
                   std::to_string(kLftFileVersion) + " (read them again with --refresh)");
      header = true;
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
      throw fail("unknown record '" + key + "'");
    }
  }
  if (!header) throw LftFileError(path + " is empty");
  if (!read_at) throw LftFileError(path + ": no read_at line (file cut short?)");
  return tables;
}

}  // namespace ibpm::routes
