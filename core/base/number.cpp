// SPDX-License-Identifier: MIT

#include "base/number.hpp"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <ctime>

namespace ibpm::base {

std::string format_number(double value) {
  if (std::isnan(value)) return "nan";
  if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
  if (value == 0) return "0";  // also folds -0.0
  // Fixed notation of the extremes needs ~330 characters (DBL_MAX, denormals).
  char buffer[400];
  auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, value, std::chars_format::fixed);
  if (ec != std::errc{}) return "nan";  // cannot happen with this buffer size
  return std::string(buffer, end);
}

std::string format_fixed(double value, int decimals) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.*f", decimals, value);
  // A value that rounds to zero is "0.00", never "-0.00" (noise around an exact 0).
  if (buffer[0] == '-' && std::strspn(buffer + 1, "0.") == std::strlen(buffer + 1))
    return buffer + 1;
  return buffer;
}

std::string format_short(double value) {
  const double a = std::fabs(value);
  return format_fixed(value, a >= 100 || a == 0 ? 0 : a >= 10 ? 1 : 2);
}

std::string format_scaled(double value, std::span<const char* const> units) {
  std::size_t unit = 0;
  while (std::fabs(value) >= 1000 && unit + 1 < units.size()) {
    value /= 1000;
    ++unit;
  }
  return format_short(value) + " " + units[unit];
}

std::string format_rate(double octets_per_second) {
  static const char* const units[] = {"B/s", "kB/s", "MB/s", "GB/s", "TB/s"};
  return format_scaled(octets_per_second, units);
}

std::string format_utc(double epoch_seconds, const char* format) {
  const auto seconds = static_cast<std::time_t>(epoch_seconds);
  std::tm utc{};
  gmtime_r(&seconds, &utc);
  char text[64];
  const std::size_t n = std::strftime(text, sizeof text, format, &utc);
  return std::string(text, n);
}

}  // namespace ibpm::base
