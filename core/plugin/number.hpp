// Locale-independent number formatting for plugin output.
#pragma once

#include <string>

namespace ibpm::plugin {

// The shortest decimal string that reads back as the same double, always in fixed
// notation (perfdata values are [-0-9.], exponents are not part of the format):
// 3 -> "3", 0.25 -> "0.25", 1e6 -> "1000000", -0.0 -> "0".
// Non-finite values give "nan", "inf" or "-inf"; callers decide how to represent them.
std::string format_number(double value);

}  // namespace ibpm::plugin
