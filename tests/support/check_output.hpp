// SPDX-License-Identifier: MIT
// Reading what a check printed: perfdata values on its first line, and comparing numbers.
#pragma once

#include <optional>
#include <string>

#include "support/process.hpp"

namespace ibpm::test {

// The value of perfdata LABEL on the first line (its unit cut off); nullopt when absent.
std::optional<double> perf_value(const ProcessRun& run, const std::string& label);

// |a - b| / |b| (|a - b| when b is 0).
double relative_difference(double a, double b);

// Now, as seconds since the epoch (the clock the checks stamp their samples with).
double now_epoch_seconds();

}  // namespace ibpm::test
