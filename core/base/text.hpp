// SPDX-License-Identifier: MIT
// Making untrusted strings (node descriptions, file contents) safe to print.
#pragma once

#include <string>
#include <string_view>

namespace ibpm::base {

// The text with every byte that is not part of a well-formed UTF-8 sequence (stray
// continuation bytes, truncated or overlong sequences, surrogates, > U+10FFFF) replaced
// by U+FFFD. Node descriptions are fixed 64-byte fields and may end mid-character.
std::string valid_utf8(std::string_view text);

// valid_utf8(), then everything that could break a line of plugin output replaced:
//   '|'                         -> '/'   (starts the perfdata section)
//   C0 controls (incl. \n, \r, \t), DEL, C1 controls U+0080..U+009F -> ' '
// Nothing else changes; HTML is left to the web front ends, which escape it.
std::string one_line(std::string_view text);

// &, <, >, " and ' as HTML entities (for text and attribute values alike); nothing else changes.
std::string html_escape(std::string_view text);

}  // namespace ibpm::base
