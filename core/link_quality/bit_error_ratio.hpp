// SPDX-License-Identifier: MIT
// A bit error ratio from a count of errors and the bits a link signalled meanwhile, with the
// exact (Garwood) Poisson confidence bounds of the count: with few errors the ratio itself says
// little (one error in a quiet window is as likely from a good link as from a bad one), so a
// threshold is judged on the lower bound: an alert means the link is worse than the threshold
// with the given confidence, not that it was unlucky once.
#pragma once

#include <cstdint>
#include <string>

namespace ibpm::link_quality {

struct PoissonBounds {
  double lower = 0;  // of the expected count, one-sided at the confidence
  double upper = 0;
};

// One-sided bounds at `confidence` (0.95: the true mean is above `lower` with 95 % confidence,
// and below `upper` with 95 %): lower = chi2(1 - c, 2k) / 2 (0 for k = 0), upper = chi2(c,
// 2k + 2) / 2. `count` may be fractional (errors apportioned at a window's edge).
PoissonBounds poisson_bounds(double count, double confidence);

struct BitErrorRatio {
  double errors = 0;
  double bits = 0;
  double ratio = 0;  // errors / bits
  double lower = 0;  // the bounds of the ratio
  double upper = 0;
};

// errors / bits with their bounds; bits must be > 0.
BitErrorRatio bit_error_ratio(double errors, double bits, double confidence);

// "1.2e-13": two significant digits, as BERs are quoted (and the bits they are over: "1.8e+12").
std::string format_ber(double ratio);

}  // namespace ibpm::link_quality
