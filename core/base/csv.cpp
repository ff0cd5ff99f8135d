// SPDX-License-Identifier: MIT

#include "base/csv.hpp"

#include "base/text.hpp"

namespace ibpm::base {

std::string csv_field(std::string_view text) {
  if (text.find_first_of(",\"\r\n") == std::string_view::npos) return std::string(text);
  std::string quoted = "\"";
  for (const char c : text) {
    if (c == '"') quoted += '"';
    quoted += c;
  }
  return quoted + '"';
}

std::string csv_text(std::string_view text) {
  const std::string valid = valid_utf8(text);
  std::string clean;
  clean.reserve(valid.size() + 1);
  for (std::size_t i = 0; i < valid.size(); ++i) {
    const auto byte = static_cast<unsigned char>(valid[i]);
    if (byte < 0x20 || byte == 0x7F) {
      clean += ' ';
    } else if (byte == 0xC2 && i + 1 < valid.size() &&
               static_cast<unsigned char>(valid[i + 1]) <= 0x9F) {
      clean += ' ';  // a C1 control, U+0080..U+009F
      ++i;
    } else {
      clean += valid[i];
    }
  }
  if (!clean.empty() && (clean.front() == '=' || clean.front() == '+' || clean.front() == '-' ||
                         clean.front() == '@'))
    clean.insert(clean.begin(), '\'');
  return csv_field(clean);
}

}  // namespace ibpm::base
