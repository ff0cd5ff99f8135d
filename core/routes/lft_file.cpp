// SPDX-License-Identifier: MIT
// Writes and reads STATE_DIR/routes.lft (format in lft_file.hpp).

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

// "PATH line N: WHY".
LftFileError line_error(const std::string& path, std::size_t number, const std::string& why) {
  return LftFileError(path + " line " + std::to_string(number) + ": " + why);
}

// The header line's switch count, once its magic and version are this reader's.
std::size_t lft_header_switch_count(const std::string& head, const std::string& path) {
  std::istringstream fields(head.substr(0, head.find('\n')));
  std::string key, version_text, count_text;
  fields >> key >> version_text >> count_text;
  int version = 0;
  if (key != kMagic || !parse_decimal(version_text, version))
    throw line_error(path, 1, "not an ibpm forwarding table file");
  if (version != kLftFileVersion)
    throw line_error(path, 1,
                     "format version " + version_text + ", this ibpm reads version " +
                         std::to_string(kLftFileVersion) +
                         " (read them again with ibpm-routes --refresh)");
  std::size_t switch_count = 0;
  if (!parse_decimal(count_text, switch_count) || switch_count >= 0xc000)
    throw line_error(path, 1, "bad switch count '" + count_text + "'");
  return switch_count;
}

struct LftFileText {
  std::string text;
  std::size_t switch_count = 0;  // as the header says
};

// The whole file, read only once the header says how large it may be.
LftFileText read_lft_text(const std::string& path) {
  try {
    const base::FileDescriptor file(
        base::open_existing_regular_file(path, base::FinalLink::follow));
    if (file.fd < 0)
      throw LftFileError("no forwarding tables in " + path +
                         " (read them with ibpm-routes --refresh)");
    const std::uint64_t size = base::file_size(file.fd);
    if (size == 0) throw LftFileError(path + " is empty");
    LftFileText out;
    out.switch_count =
        lft_header_switch_count(base::read_bytes(file.fd, 0, kMaxHeaderLine, path), path);
    const std::uint64_t largest = 3 * kMaxHeaderLine + out.switch_count * kMaxSwitchLine;
    if (size > largest)
      throw LftFileError(path + ": " + std::to_string(size) + " bytes, more than " +
                         std::to_string(out.switch_count) + " switches' tables take");
    out.text = base::read_bytes(file.fd, 0, static_cast<std::size_t>(size), path);
    return out;
  } catch (const LftFileError&) {
    throw;
  } catch (const std::runtime_error& e) {
    throw LftFileError(e.what());
  }
}

// The records after the header, a line at a time.
class LftRecords {
 public:
  LftRecords(const std::string& path, std::size_t switch_count)
      : path_(path), switch_count_(switch_count) {}

  void line(std::size_t number, const std::string& line) {
    number_ = number;
    std::istringstream fields(line);
    std::string key, a, b, c, extra;
    fields >> key >> a >> b >> c >> extra;
    if (end_) {
      if (!key.empty()) throw fail("'" + key.substr(0, 40) + "' after the end line");
    } else if (key == "end") {
      end_line(a, b);
    } else if (key == "read_at") {
      if (!parse_decimal(a, tables_.read_at) || !b.empty()) throw fail("bad read_at");
      read_at_ = true;
    } else if (key == "switch") {
      switch_line(a, b, c, extra);
    } else if (!key.empty()) {
      throw fail("unknown record '" + key.substr(0, 40) + "'");
    }
  }

  // The tables, once the read_at and end lines were both there.
  ForwardingTables finish() {
    if (!read_at_) throw LftFileError(path_ + ": no read_at line (file cut short?)");
    if (!end_) throw LftFileError(path_ + ": no end line (file cut short?)");
    return std::move(tables_);
  }

 private:
  LftFileError fail(const std::string& why) const { return line_error(path_, number_, why); }

  // "end COUNT": the header's count, and the switches read.
  void end_line(const std::string& count_text, const std::string& extra) {
    std::size_t count = 0;
    if (!parse_decimal(count_text, count) || !extra.empty() || count != switch_count_ ||
        count != tables_.switches.size())
      throw fail("the end line says " + count_text + " switches; the header says " +
                 std::to_string(switch_count_) + ", the file holds " +
                 std::to_string(tables_.switches.size()));
    end_ = true;
  }

  // "switch GUID LID HEX": the egress port of each LID as two hex digits.
  void switch_line(const std::string& guid_text, const std::string& lid_text,
                   const std::string& hex, const std::string& extra) {
    const auto guid = parse_guid(guid_text);
    unsigned lid = 0;
    if (!guid || !parse_decimal(lid_text, lid) || lid == 0 || lid >= 0xc000 || !extra.empty() ||
        hex.size() % 2 != 0 || hex.empty())
      throw fail("bad switch line");
    SwitchTable table;
    table.node = *guid;
    table.lid = static_cast<Lid>(lid);
    table.ports.reserve(hex.size() / 2);
    for (std::size_t i = 0; i < hex.size(); i += 2) {
      const int hi = hex_digit(hex[i]), lo = hex_digit(hex[i + 1]);
      if (hi < 0 || lo < 0) throw fail("bad egress port '" + hex.substr(i, 2) + "'");
      table.ports.push_back(static_cast<PortNumber>(hi * 16 + lo));
    }
    if (!tables_.switches.emplace(table.node, std::move(table)).second)
      throw fail("switch " + guid_text + " listed twice");
  }

  const std::string& path_;
  const std::size_t switch_count_;
  std::size_t number_ = 0;
  ForwardingTables tables_;
  bool read_at_ = false, end_ = false;
};

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
  const LftFileText file = read_lft_text(path);
  std::istringstream in(file.text);
  LftRecords records(path, file.switch_count);
  std::string line;
  std::getline(in, line);  // the header, read above
  std::size_t number = 1;
  while (std::getline(in, line)) records.line(++number, line);
  return records.finish();
}

}  // namespace ibpm::routes
