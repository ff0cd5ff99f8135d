// SPDX-License-Identifier: MIT
// CSV fields as RFC 4180 wants them, for every command that writes CSV.
#pragma once

#include <string>
#include <string_view>

namespace ibpm::base {

// A field with a comma, quote or line break goes in quotes, its quotes doubled.
std::string csv_field(std::string_view text);

// A text cell from the fabric (a NodeDescription, a name): valid UTF-8, control characters as
// blanks, and, as OWASP recommends against spreadsheet formula injection, a single quote before a
// cell that would start with '=', '+', '-' or '@'; then quoted as csv_field does. Numbers are
// written with csv_field (or as they are), so "-1.5" stays a number.
std::string csv_text(std::string_view text);

}  // namespace ibpm::base
