// SPDX-License-Identifier: MIT

#include "plugin/perfdata.hpp"

#include <array>
#include <cmath>
#include <string_view>

#include "base/number.hpp"
#include "base/text.hpp"

namespace ibpm::plugin {
namespace {

bool is_plain_label_char(char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' ||
         c == '.' || c == '-';
}

bool breaks_uom(char c) {
  const auto byte = static_cast<unsigned char>(c);
  if (byte < 0x20 || byte == 0x7F) return true;
  if (c >= '0' && c <= '9') return true;
  return std::string_view(" .+-;='\"|").find(c) != std::string_view::npos;
}

std::string format_limit(const std::optional<double>& limit) {
  if (!limit || !std::isfinite(*limit)) return "";
  return base::format_number(*limit);
}

}  // namespace

bool is_standard_uom(std::string_view uom) {
  static constexpr std::array<std::string_view, 10> kUnits{"",  "s",  "ms", "us", "%",
                                                           "B", "KB", "MB", "TB", "c"};
  for (const auto unit : kUnits)
    if (uom == unit) return true;
  return false;
}

std::string sanitize_label(std::string_view label) {
  std::string out = base::valid_utf8(label);
  for (char& c : out) {
    const auto byte = static_cast<unsigned char>(c);
    if (c == '\'' || c == '=' || c == '|' || byte < 0x20 || byte == 0x7F) c = '_';
  }
  if (out.empty()) out.push_back('_');  // not out = "_": GCC 12 -Wrestrict false positive
  return out;
}

std::string format_perfdata(const Perfdata& perfdata) {
  const std::string label = sanitize_label(perfdata.label);
  bool plain = true;
  for (const char c : label) plain = plain && is_plain_label_char(c);

  std::string out = plain ? label : "'" + label + "'";
  out += '=';
  if (std::isfinite(perfdata.value)) {
    out += base::format_number(perfdata.value);
    for (const char c : base::valid_utf8(perfdata.uom))
      if (!breaks_uom(c)) out += c;
  } else {
    out += 'U';
  }

  const std::array<std::string, 4> fields{perfdata.warn ? to_string(*perfdata.warn) : "",
                                          perfdata.crit ? to_string(*perfdata.crit) : "",
                                          format_limit(perfdata.min), format_limit(perfdata.max)};
  std::size_t used = fields.size();
  while (used > 0 && fields[used - 1].empty()) --used;
  for (std::size_t i = 0; i < used; ++i) out += ';' + fields[i];
  return out;
}

std::string format_perfdata(std::span<const Perfdata> perfdata) {
  std::string out;
  for (const auto& item : perfdata) {
    if (!out.empty()) out += ' ';
    out += format_perfdata(item);
  }
  return out;
}

}  // namespace ibpm::plugin
