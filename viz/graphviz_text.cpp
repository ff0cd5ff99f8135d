// SPDX-License-Identifier: MIT

#include "viz/graphviz_text.hpp"

#include "base/text.hpp"

namespace ibpm::viz {

std::string printable(std::string_view text) {
  const std::string valid = base::valid_utf8(text);
  std::string out;
  out.reserve(valid.size());
  for (std::size_t i = 0; i < valid.size(); ++i) {
    const auto c = static_cast<unsigned char>(valid[i]);
    if (c < 0x20 || c == 0x7f) {
      out += ' ';
    } else if (c == 0xc2 && i + 1 < valid.size() &&
               static_cast<unsigned char>(valid[i + 1]) <= 0x9f) {
      out += ' ';  // C1 control U+0080..U+009F (valid UTF-8 guarantees a continuation byte)
      ++i;
    } else {
      out += static_cast<char>(c);
    }
  }
  return out;
}

std::string html_text(std::string_view text) {
  std::string out;
  for (char c : base::html_escape(printable(text))) {
    if (c == '\\') out += '\\';  // Graphviz reads \N, \G, ... in labels: a backslash is doubled
    out += c;
  }
  return out;
}

std::string tooltip_text(std::string_view text) {
  std::string out;
  for (char c : printable(text)) {
    if (c == '\\')
      out += "\\\\\\\\";
    else if (c == '&')
      out += "&amp;";  // the SVG writer passes "&name;" through as an entity
    else
      out += c;
  }
  return out;
}

std::string tooltip(const std::vector<std::string>& lines) {
  std::string out;
  for (const std::string& line : lines) {
    if (!out.empty()) out += "\\n";
    out += tooltip_text(line);
  }
  return out;
}

std::string url_text(std::string_view url) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  for (char ch : url) {
    const auto c = static_cast<unsigned char>(ch);
    if (c <= 0x20 || c >= 0x7f || c == '\\' || c == '"' || c == '\'' || c == '<' || c == '>') {
      out += '%';
      out += kHex[c >> 4];
      out += kHex[c & 0xf];
    } else {
      out += ch;
    }
  }
  return out;
}

}  // namespace ibpm::viz
