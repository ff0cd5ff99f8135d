// SPDX-License-Identifier: MIT

#include "plugin/range.hpp"

#include <charconv>
#include <cmath>
#include <stdexcept>

#include "base/number.hpp"

namespace ibpm::plugin {
namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();

[[noreturn]] void fail(std::string_view text, std::string_view reason) {
  throw std::invalid_argument("invalid range '" + std::string(text) + "': " + std::string(reason));
}

bool is_digit(char c) { return c >= '0' && c <= '9'; }

double parse_number(std::string_view range_text, std::string_view number) {
  if (number.empty()) fail(range_text, "missing number");
  std::string_view digits = number;
  std::string_view unsigned_part = number;
  if (number.front() == '+') {  // from_chars rejects '+', strtod accepts it
    digits.remove_prefix(1);
    unsigned_part = digits;
  } else if (number.front() == '-') {
    unsigned_part.remove_prefix(1);
  }
  // from_chars also accepts "inf" and "nan"; a threshold must be a real number.
  if (unsigned_part.empty() || !(is_digit(unsigned_part.front()) || unsigned_part.front() == '.'))
    fail(range_text, "'" + std::string(number) + "' is not a number");

  double value = 0;
  auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), value,
                                   std::chars_format::general);
  if (ec == std::errc::result_out_of_range)
    fail(range_text, "'" + std::string(number) + "' is out of range");
  if (ec != std::errc{} || end != digits.data() + digits.size())
    fail(range_text, "'" + std::string(number) + "' is not a number");
  return value;
}

}  // namespace

bool Range::alerts(double value) const {
  if (std::isnan(value)) return true;
  const bool within = start <= value && value <= end;
  return inside ? within : !within;
}

Range parse_range(std::string_view text) {
  if (text.empty()) fail(text, "empty");
  Range range;
  std::string_view rest = text;
  if (rest.front() == '@') {
    range.inside = true;
    rest.remove_prefix(1);
    if (rest.empty()) fail(text, "nothing after '@'");
  }

  const auto colon = rest.find(':');
  if (colon == std::string_view::npos) {
    range.start = 0;
    range.end = parse_number(text, rest);
  } else {
    const std::string_view start = rest.substr(0, colon);
    const std::string_view end = rest.substr(colon + 1);
    if (end.find(':') != std::string_view::npos) fail(text, "more than one ':'");
    // monitoring-plugins would read ":10" as 0:10; here it is rejected because "~:10"
    // is the more likely intent and a silent 0 lower bound alerts on negative values.
    if (start.empty()) fail(text, "missing start before ':' (use ~ for negative infinity)");
    range.start = start == "~" ? -kInfinity : parse_number(text, start);
    range.end = end.empty() ? kInfinity : parse_number(text, end);
  }

  if (range.start > range.end) {
    std::string reason = "start " + base::format_number(range.start) + " is greater than end " +
                         base::format_number(range.end);
    if (colon == std::string_view::npos) reason += " (a single number N means 0:N)";
    fail(text, reason);
  }
  return range;
}

std::string to_string(const Range& range) {
  std::string text = range.inside ? "@" : "";
  const bool open_end = std::isinf(range.end) && range.end > 0;
  if (std::isinf(range.start) && range.start < 0) {
    text += "~:";
    if (!open_end) text += base::format_number(range.end);
  } else if (open_end) {
    text += base::format_number(range.start) + ":";
  } else if (range.start == 0) {
    text += base::format_number(range.end);
  } else {
    text += base::format_number(range.start) + ":" + base::format_number(range.end);
  }
  return text;
}

State Thresholds::evaluate(double value) const {
  if (critical && critical->alerts(value)) return State::critical;
  if (warning && warning->alerts(value)) return State::warning;
  return State::ok;
}

}  // namespace ibpm::plugin
