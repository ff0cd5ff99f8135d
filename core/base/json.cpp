// SPDX-License-Identifier: MIT

#include "base/json.hpp"

#include <cmath>

#include "base/number.hpp"
#include "base/text.hpp"

namespace ibpm::base {

std::string json_string(std::string_view text) {
  static constexpr char kHex[] = "0123456789abcdef";
  const std::string valid = valid_utf8(text);
  std::string out;
  out.reserve(valid.size() + 2);
  out += '"';
  for (const char c : valid) {
    const auto byte = static_cast<unsigned char>(c);
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\b':
        out += "\\b";
        break;
      case '\f':
        out += "\\f";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      default:
        if (byte < 0x20 || byte == 0x7F) {
          out += "\\u00";
          out += kHex[byte >> 4];
          out += kHex[byte & 0x0F];
        } else {
          out += c;
        }
    }
  }
  out += '"';
  return out;
}

std::string json_number(double value) {
  if (!std::isfinite(value)) return "null";
  return format_number(value);
}

}  // namespace ibpm::base
