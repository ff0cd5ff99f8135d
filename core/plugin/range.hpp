// SPDX-License-Identifier: MIT
// Threshold ranges in the Monitoring Plugins development guidelines syntax.
//
//   text      alerts when                    parsed as
//   10        value < 0 or value > 10        start 0,    end 10
//   10:       value < 10                     start 10,   end +inf
//   ~:10      value > 10                     start -inf, end 10
//   10:20     value < 10 or value > 20       start 10,   end 20
//   @10:20    10 <= value <= 20              start 10,   end 20, inside
//
// Endpoints are inclusive: 10:20 does not alert at 10 or 20, @10:20 does.
// Numbers may be negative or fractional and may use an exponent (-5:-1, ~:-0.5, 1e3).
#pragma once

#include <limits>
#include <optional>
#include <string>
#include <string_view>

#include "plugin/state.hpp"

namespace ibpm::plugin {

struct Range {
  double start = 0;                                      // -infinity for "~"
  double end = std::numeric_limits<double>::infinity();  // +infinity when omitted
  bool inside = false;                                   // "@": alert inside instead of outside

  // Whether value triggers this range. NaN always alerts: a value that cannot be
  // compared cannot be shown to be acceptable.
  bool alerts(double value) const;

  friend bool operator==(const Range&, const Range&) = default;
};

// Parses the syntax above. Throws std::invalid_argument naming the text and the problem
// for an empty string, an unparsable number (including "inf"/"nan"), an empty start
// before ':' (write "~" or a number), or start > end.
// Numbers are read with std::from_chars, so the locale never changes their meaning.
Range parse_range(std::string_view text);

// Back to the same syntax, shortest form: parse_range(to_string(r)) == r.
std::string to_string(const Range& range);

struct Thresholds {
  std::optional<Range> warning;
  std::optional<Range> critical;

  // CRITICAL if the critical range alerts, else WARNING if the warning range alerts,
  // else OK. Missing ranges never alert.
  State evaluate(double value) const;
};

}  // namespace ibpm::plugin
