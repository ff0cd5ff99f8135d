#include "plugin/number.hpp"

#include <charconv>
#include <cmath>

namespace ibpm::plugin {

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

}  // namespace ibpm::plugin
