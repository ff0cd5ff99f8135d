// SPDX-License-Identifier: MIT
// The two JSON primitives the JSON renderer needs.
#pragma once

#include <string>
#include <string_view>

namespace ibpm::base {

// A quoted JSON string: '"' and '\' escaped, control characters as \n, \t, ... or \u00XX,
// non-ASCII passed through as UTF-8 (invalid UTF-8 becomes U+FFFD first, so the result is
// always valid JSON). No HTML escaping: '<' stays '<'.
std::string json_string(std::string_view text);

// A JSON number in fixed notation (see format_number); null for NaN and infinities,
// which JSON cannot represent.
std::string json_number(double value);

}  // namespace ibpm::base
