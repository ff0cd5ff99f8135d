// SPDX-License-Identifier: MIT

#include "link_quality/bit_error_ratio.hpp"

#include <boost/math/distributions/chi_squared.hpp>
#include <cmath>
#include <cstdio>

namespace ibpm::link_quality {

PoissonBounds poisson_bounds(double count, double confidence) {
  using boost::math::chi_squared;
  PoissonBounds bounds;
  if (count > 0) bounds.lower = boost::math::quantile(chi_squared(2 * count), 1 - confidence) / 2;
  bounds.upper = boost::math::quantile(chi_squared(2 * count + 2), confidence) / 2;
  return bounds;
}

BitErrorRatio bit_error_ratio(double errors, double bits, double confidence) {
  const PoissonBounds bounds = poisson_bounds(errors, confidence);
  return BitErrorRatio{errors, bits, errors / bits, bounds.lower / bits, bounds.upper / bits};
}

std::string format_ber(double ratio) {
  if (ratio == 0) return "0";
  char text[32];
  std::snprintf(text, sizeof text, "%.2g", ratio);
  return text;
}

}  // namespace ibpm::link_quality
