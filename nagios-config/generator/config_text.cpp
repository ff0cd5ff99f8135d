// SPDX-License-Identifier: MIT

#include "config_text.hpp"

#include "products/monitoring_names.hpp"

namespace ibpm::nagios_config {

namespace {

bool printable_ascii(char c) { return c >= 0x20 && c < 0x7f; }

std::string trim(std::string text) {
  const auto first = text.find_first_not_of(' ');
  if (first == std::string::npos) return {};
  const auto last = text.find_last_not_of(' ');
  return text.substr(first, last - first + 1);
}

}  // namespace

std::string object_name(std::string_view text) { return products::object_name(text); }

std::string nagios_value(std::string_view text) {
  std::string value;
  for (char c : text) {
    if (c == ';') {
      value += "\\;";
    } else if (c == '$' || c == '\\') {
      continue;
    } else if (printable_ascii(c)) {
      value += c;
    } else if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) {
      value += ' ';
    }
  }
  return trim(std::move(value));
}

std::string icinga_string(std::string_view text) {
  std::string literal = "\"";
  for (char c : text) {
    switch (c) {
      case '"':
        literal += "\\\"";
        break;
      case '\\':
        literal += "\\\\";
        break;
      case '$':
        literal += "$$";
        break;
      case '\n':
        literal += "\\n";
        break;
      case '\t':
        literal += "\\t";
        break;
      default:
        if (printable_ascii(c)) literal += c;
    }
  }
  return literal + "\"";
}

}  // namespace ibpm::nagios_config
