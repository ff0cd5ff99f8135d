// SPDX-License-Identifier: MIT

#include "anonymize_key.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <ostream>
#include <stdexcept>

#include "base/atomic_file.hpp"
#include "base/regular_file.hpp"

namespace ibpm::tools {

namespace {

constexpr std::string_view kVersionLine = "ibpm-anonymize-key 1";
constexpr std::string_view kVersionWord = "ibpm-anonymize-key ";
constexpr std::string_view kOldFirstLine = "# ibpm-anonymize key:";

// A description as a quoted C string: printable ASCII as is, the rest as \xNN.
std::string quoted(const std::string& text) {
  std::string out = "\"";
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (byte >= 0x20 && byte < 0x7f) {
      out += c;
    } else {
      char escaped[8];
      std::snprintf(escaped, sizeof escaped, "\\x%02x", byte);
      out += escaped;
    }
  }
  return out + "\"";
}

int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// One line of the key, read left to right.
class LineReader {
 public:
  explicit LineReader(std::string_view line) : rest_(line) {}

  bool at_end() const { return rest_.empty(); }

  // A space between fields (one or more).
  void space() {
    if (rest_.empty() || rest_.front() != ' ') throw std::invalid_argument("fields not separated");
    while (!rest_.empty() && rest_.front() == ' ') rest_.remove_prefix(1);
  }

  std::string_view word() {
    const std::size_t end = std::min(rest_.find(' '), rest_.size());
    const std::string_view word = rest_.substr(0, end);
    rest_.remove_prefix(end);
    return word;
  }

  // 0x and 16 hex digits, not 0.
  Guid guid() {
    const std::string_view text = word();
    Guid value = 0;
    if (text.size() != 18 || text.substr(0, 2) != "0x" ||
        std::from_chars(text.data() + 2, text.data() + text.size(), value, 16).ptr !=
            text.data() + text.size())
      throw std::invalid_argument("a GUID that is not 0x and 16 hex digits");
    if (value == 0) throw std::invalid_argument("GUID 0 is never rewritten");
    return value;
  }

  // "text" with \" \\ \xNN; not empty.
  std::string quoted_text() {
    if (rest_.empty() || rest_.front() != '"') throw std::invalid_argument("a name not quoted");
    rest_.remove_prefix(1);
    std::string text;
    for (;;) {
      if (rest_.empty()) throw std::invalid_argument("a quoted name not closed");
      const char c = rest_.front();
      rest_.remove_prefix(1);
      if (c == '"') break;
      if (c != '\\') {
        text += c;
        continue;
      }
      if (rest_.empty()) throw std::invalid_argument("a quoted name not closed");
      const char escaped = rest_.front();
      rest_.remove_prefix(1);
      if (escaped == '"' || escaped == '\\') {
        text += escaped;
      } else if (escaped == 'x' && rest_.size() >= 2 && hex_digit(rest_[0]) >= 0 &&
                 hex_digit(rest_[1]) >= 0) {
        text += static_cast<char>(hex_digit(rest_[0]) * 16 + hex_digit(rest_[1]));
        rest_.remove_prefix(2);
      } else {
        throw std::invalid_argument("an unknown escape in a quoted name");
      }
    }
    if (text.empty()) throw std::invalid_argument("an empty name");
    return text;
  }

 private:
  std::string_view rest_;
};

}  // namespace

AnonymizeKey parse_key(std::string_view text, const std::string& origin) {
  AnonymizeKey key;
  AnonymousNames seen;  // an original or anonymous value twice is refused as it is kept
  bool versioned = false;
  std::size_t number = 0;
  while (!text.empty()) {
    const std::size_t end = std::min(text.find('\n'), text.size());
    std::string_view line = text.substr(0, end);
    text.remove_prefix(std::min(end + 1, text.size()));
    ++number;
    const std::string at = origin + ": line " + std::to_string(number) + ": ";
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (!versioned) {
      if (line == kVersionLine || line.substr(0, kOldFirstLine.size()) == kOldFirstLine) {
        versioned = true;
        continue;
      }
      if (line.substr(0, kVersionWord.size()) == kVersionWord)
        throw std::runtime_error(at + "another key version: this ibpm-anonymize reads " +
                                 std::string(kVersionLine));
      throw std::runtime_error(at + "not an ibpm-anonymize key (no '" + std::string(kVersionLine) +
                               "' line first)");
    }
    if (line.empty() || line.front() == '#') continue;
    try {
      LineReader reader(line);
      const std::string_view kind = reader.word();
      if (kind == "guid") {
        reader.space();
        const Guid original = reader.guid();
        reader.space();
        const Guid anonymous = reader.guid();
        if (!reader.at_end()) throw std::invalid_argument("more than two GUIDs");
        seen.keep_guid(original, anonymous);
        key.guids.emplace_back(original, anonymous);
      } else if (kind == "name") {
        reader.space();
        std::string original = reader.quoted_text();
        reader.space();
        std::string anonymous = reader.quoted_text();
        if (!reader.at_end()) throw std::invalid_argument("more than two names");
        seen.keep_name(original, anonymous);
        key.names.emplace_back(std::move(original), std::move(anonymous));
      } else {
        throw std::invalid_argument("neither a guid nor a name line");
      }
    } catch (const std::invalid_argument& e) {
      throw std::runtime_error(at + e.what());
    }
  }
  if (!versioned) throw std::runtime_error(origin + ": empty: not an ibpm-anonymize key");
  return key;
}

std::optional<AnonymizeKey> read_key_file(const std::string& path) {
  const base::FileDescriptor file(base::open_existing_regular_file(path, base::FinalLink::refuse));
  if (file.fd < 0) return std::nullopt;
  const std::string text = base::read_bytes(file.fd, 0, kMaxKeyBytes + 1, path);
  if (text.size() > kMaxKeyBytes)
    throw std::runtime_error(path + ": larger than " + std::to_string(kMaxKeyBytes) +
                             " bytes: not an ibpm-anonymize key");
  return parse_key(text, path);
}

void write_key_file(const std::string& path, const AnonymousNames& names) {
  struct stat status {};
  if (::lstat(path.c_str(), &status) == 0 && S_ISLNK(status.st_mode))
    throw std::runtime_error(path + ": is a symbolic link (not followed)");
  base::replace_file_with(
      path,
      [&](std::ostream& out) {
        out << kVersionLine << "\n"
            << "# original -> anonymized. It undoes the anonymization: keep it at the site.\n";
        char line[64];
        for (const auto& [original, anonymous] : names.guid_mapping()) {
          std::snprintf(line, sizeof line, "guid 0x%016llx 0x%016llx\n",
                        static_cast<unsigned long long>(original),
                        static_cast<unsigned long long>(anonymous));
          out << line;
        }
        for (const auto& [original, anonymous] : names.name_mapping())
          out << "name " << quoted(original) << " " << quoted(anonymous) << "\n";
      },
      0600);
}

}  // namespace ibpm::tools
