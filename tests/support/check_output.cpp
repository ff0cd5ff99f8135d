// SPDX-License-Identifier: MIT
// Perfdata items are "label=value[unit];warn;crit..." after " | " on the first line.
#include "support/check_output.hpp"

#include <chrono>
#include <cmath>
#include <cstdlib>
#include <sstream>

namespace ibpm::test {

std::optional<double> perf_value(const ProcessRun& run, const std::string& label) {
  const std::string line = run.first_line();
  const auto bar = line.find(" | ");
  if (bar == std::string::npos) return std::nullopt;
  std::istringstream items(line.substr(bar + 3));
  for (std::string item; items >> item;) {
    if (item.rfind(label + "=", 0) != 0) continue;
    const std::string value = item.substr(label.size() + 1);
    char* end = nullptr;
    const double number = std::strtod(value.c_str(), &end);
    if (end == value.c_str()) return std::nullopt;
    return number;
  }
  return std::nullopt;
}

double relative_difference(double a, double b) {
  return b == 0 ? std::fabs(a - b) : std::fabs(a - b) / std::fabs(b);
}

double now_epoch_seconds() {
  return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
}

}  // namespace ibpm::test
