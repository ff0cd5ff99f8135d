// SPDX-License-Identifier: MIT
// A rate threshold: a Monitoring Plugins range (plugin/range.hpp) followed by a time unit, so an
// operator writes "10/h" for "more than ten an hour" instead of "0.002778" per second.
//
//   text        alerts when the rate is            unit
//   10/h        below 0 or above 10 an hour       per hour
//   @1:5/min    from 1 to 5 a minute (inclusive)  per minute
//   ~:0.5       above 0.5 a second                per second (the default)
//   100:/s      below 100 a second                per second
//
// The unit applies to both endpoints. A measured per-second rate is converted into the
// threshold's unit before it is compared (1/s is 60/min and 3600/h), so "3599/h" alerts at 1/s
// and "3601/h" does not; the range's endpoints are never rounded.
#pragma once

#include <string>
#include <string_view>

#include "plugin/range.hpp"

namespace ibpm::thresholds {

enum class RateUnit { per_second, per_minute, per_hour };

struct RateRange {
  plugin::Range range;
  RateUnit unit = RateUnit::per_second;

  friend bool operator==(const RateRange&, const RateRange&) = default;
};

// The syntax above. Throws std::invalid_argument naming the whole text for a bad range, an
// unknown unit ("/d", "/sec"), a unit without a range ("/h") or a '%' (only percentages take it).
RateRange parse_rate_range(std::string_view text);

// A percentage threshold: a plain range, optionally ending in '%' ("90", "90%", "@80:95%").
// A rate unit is an error. The unit is per_second, whose factor 1 leaves values unconverted.
RateRange parse_percent_range(std::string_view text);

// The range with its unit, always written out: "10/h", "~:0.5/s", "@1:5/min".
// parse_rate_range(to_string(r)) == r.
std::string to_string(const RateRange& range);

std::string_view unit_suffix(RateUnit unit);  // "/s", "/min", "/h"

// Seconds per unit inverted: 1, 1/60, 1/3600 (a rate of x per unit is x * factor per second).
double per_second_factor(RateUnit unit);

// A per-second rate in `unit`: 1/s is 60/min and 3600/h. Multiplies by 60 or 3600 (exact for
// integral rates) rather than dividing by per_second_factor, which is not exactly representable.
double from_per_second(double per_second, RateUnit unit);

// Whether a per-second rate alerts the range, compared in the range's unit.
bool alerts(const RateRange& range, double per_second);

// The range expressed per second (endpoints divided by 60 or 3600), for perfdata, where rates
// are per second.
plugin::Range to_per_second(const RateRange& range);

}  // namespace ibpm::thresholds
