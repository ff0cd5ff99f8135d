// SPDX-License-Identifier: MIT

#include "base/text.hpp"

#include <cstdint>

namespace ibpm::base {
namespace {

constexpr std::string_view kReplacement = "\xEF\xBF\xBD";  // U+FFFD

struct Decoded {
  char32_t code_point;  // meaningful only when length > 0
  std::size_t length;   // 0: the byte at the start is not a valid sequence
};

// Decodes one UTF-8 sequence at the start of text (text is not empty).
Decoded decode(std::string_view text) {
  const auto byte = [&](std::size_t i) { return static_cast<std::uint8_t>(text[i]); };
  const std::uint8_t lead = byte(0);
  if (lead < 0x80) return {lead, 1};

  std::size_t length = 0;
  char32_t cp = 0;
  char32_t min = 0;
  if ((lead & 0xE0) == 0xC0) {
    length = 2, cp = lead & 0x1F, min = 0x80;
  } else if ((lead & 0xF0) == 0xE0) {
    length = 3, cp = lead & 0x0F, min = 0x800;
  } else if ((lead & 0xF8) == 0xF0) {
    length = 4, cp = lead & 0x07, min = 0x10000;
  } else {
    return {0, 0};
  }
  if (text.size() < length) return {0, 0};
  for (std::size_t i = 1; i < length; ++i) {
    if ((byte(i) & 0xC0) != 0x80) return {0, 0};
    cp = (cp << 6) | (byte(i) & 0x3F);
  }
  if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return {0, 0};
  return {cp, length};
}

template <typename OnCodePoint>
std::string transform(std::string_view text, OnCodePoint on_code_point) {
  std::string out;
  out.reserve(text.size());
  while (!text.empty()) {
    const Decoded d = decode(text);
    if (d.length == 0) {
      out += kReplacement;
      text.remove_prefix(1);
      continue;
    }
    on_code_point(out, d.code_point, text.substr(0, d.length));
    text.remove_prefix(d.length);
  }
  return out;
}

}  // namespace

std::string valid_utf8(std::string_view text) {
  return transform(text, [](std::string& out, char32_t, std::string_view bytes) { out += bytes; });
}

std::string one_line(std::string_view text) {
  return transform(text, [](std::string& out, char32_t cp, std::string_view bytes) {
    if (cp == '|')
      out += '/';
    else if (cp < 0x20 || (cp >= 0x7F && cp <= 0x9F))
      out += ' ';
    else
      out += bytes;
  });
}

std::string html_escape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&#39;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

}  // namespace ibpm::base
