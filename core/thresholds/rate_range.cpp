// SPDX-License-Identifier: MIT

#include "thresholds/rate_range.hpp"

#include <stdexcept>

namespace ibpm::thresholds {
namespace {

[[noreturn]] void fail(std::string_view kind, std::string_view text, std::string_view reason) {
  throw std::invalid_argument("invalid " + std::string(kind) + " '" + std::string(text) +
                              "': " + std::string(reason));
}

// parse_range names only the part before the unit; name the whole threshold instead, so the
// operator sees the text they wrote ("invalid range '10:5/h': start 10 is greater than end 5").
plugin::Range parse_part(std::string_view text, std::string_view range_text) {
  try {
    return plugin::parse_range(range_text);
  } catch (const std::invalid_argument& e) {
    std::string message = e.what();
    const std::string named = "invalid range '" + std::string(range_text) + "'";
    if (message.starts_with(named))
      message = "invalid range '" + std::string(text) + "'" + message.substr(named.size());
    throw std::invalid_argument(message);
  }
}

double seconds_per(RateUnit unit) {
  switch (unit) {
    case RateUnit::per_second:
      return 1;
    case RateUnit::per_minute:
      return 60;
    case RateUnit::per_hour:
      return 3600;
  }
  throw std::invalid_argument("invalid rate unit");
}

}  // namespace

RateRange parse_rate_range(std::string_view text) {
  RateRange result;
  std::string_view range_text = text;
  const auto slash = text.rfind('/');
  if (slash != std::string_view::npos) {
    const std::string_view unit = text.substr(slash + 1);
    if (unit == "s") {
      result.unit = RateUnit::per_second;
    } else if (unit == "min") {
      result.unit = RateUnit::per_minute;
    } else if (unit == "h") {
      result.unit = RateUnit::per_hour;
    } else {
      fail("rate threshold", text,
           "unknown unit '/" + std::string(unit) + "' (use /s, /min or /h)");
    }
    range_text = text.substr(0, slash);
    if (range_text.empty()) fail("rate threshold", text, "no range before the unit");
  }
  if (range_text.ends_with('%'))
    fail("rate threshold", text, "'%' is only for percentages; a rate takes /s, /min or /h");
  result.range = parse_part(text, range_text);
  return result;
}

RateRange parse_percent_range(std::string_view text) {
  if (text.find('/') != std::string_view::npos)
    fail("percentage", text, "a percentage takes no rate unit (/s, /min, /h)");
  std::string_view range_text = text;
  if (range_text.ends_with('%')) {
    range_text.remove_suffix(1);
    if (range_text.empty()) fail("percentage", text, "no range before '%'");
  }
  return RateRange{parse_part(text, range_text), RateUnit::per_second};
}

std::string to_string(const RateRange& range) {
  return plugin::to_string(range.range) + std::string(unit_suffix(range.unit));
}

std::string_view unit_suffix(RateUnit unit) {
  switch (unit) {
    case RateUnit::per_second:
      return "/s";
    case RateUnit::per_minute:
      return "/min";
    case RateUnit::per_hour:
      return "/h";
  }
  throw std::invalid_argument("invalid rate unit");
}

double per_second_factor(RateUnit unit) { return 1 / seconds_per(unit); }

double from_per_second(double per_second, RateUnit unit) { return per_second * seconds_per(unit); }

bool alerts(const RateRange& range, double per_second) {
  return range.range.alerts(from_per_second(per_second, range.unit));
}

plugin::Range to_per_second(const RateRange& range) {
  const double seconds = seconds_per(range.unit);
  return plugin::Range{range.range.start / seconds, range.range.end / seconds, range.range.inside};
}

}  // namespace ibpm::thresholds
