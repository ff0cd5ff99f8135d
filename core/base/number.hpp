// SPDX-License-Identifier: MIT
// Locale-independent number formatting for plugin output.
#pragma once

#include <span>
#include <string>

namespace ibpm::base {

// The shortest decimal string that reads back as the same double, always in fixed
// notation (perfdata values are [-0-9.], exponents are not part of the format):
// 3 -> "3", 0.25 -> "0.25", 1e6 -> "1000000", -0.0 -> "0".
// Non-finite values give "nan", "inf" or "-inf"; callers decide how to represent them.
std::string format_number(double value);

// printf's "%.*f": a fixed number of decimals, for tables and labels.
std::string format_fixed(double value, int decimals);

// An epoch time (whole seconds) in UTC, as strftime's `format` gives it: "%H:%M:%S" -> "12:01:07".
std::string format_utc(double epoch_seconds, const char* format);

// Three significant digits at most: 3.14, 31.4, 314 (and 0).
std::string format_short(double value);

// A value for people in steps of 1000 with format_short: units[0] below 1000, units[1] below a
// million, ... (the last unit takes everything above it).
std::string format_scaled(double value, std::span<const char* const> units);

// A data rate: "850 B/s", "12.3 MB/s", "3.00 GB/s".
std::string format_rate(double octets_per_second);

}  // namespace ibpm::base
