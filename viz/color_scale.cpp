// SPDX-License-Identifier: MIT

#include "viz/color_scale.hpp"

#include <algorithm>
#include <cmath>

namespace ibpm::viz {

namespace {

const std::string& pick(const std::vector<ColorBin>& scale, double value) {
  for (const ColorBin& bin : scale)
    if (value < bin.below) return bin.color;
  return scale.back().color;
}

}  // namespace

const std::vector<ColorBin>& utilization_scale() {
  static const std::vector<ColorBin> scale = {
      {0.05, "#2b83ba", "< 5 %"},   {0.25, "#4daf4a", "5-25 %"},  {0.50, "#d4b300", "25-50 %"},
      {0.75, "#fd8d3c", "50-75 %"}, {0.90, "#e31a1c", "75-90 %"}, {INFINITY, "#67000d", ">= 90 %"},
  };
  return scale;
}

std::string utilization_color(std::optional<double> utilization) {
  return utilization ? pick(utilization_scale(), *utilization) : kNoDataColor;
}

const std::vector<ColorBin>& locality_scale() {
  static const std::vector<ColorBin> scale = {
      {0.2, "#af8dc3", "l < 0.2"}, {0.4, "#e7d4e8", "0.2-0.4"},     {0.6, "#f7f7f7", "0.4-0.6"},
      {0.8, "#d9f0d3", "0.6-0.8"}, {INFINITY, "#7fbf7b", ">= 0.8"},
  };
  return scale;
}

std::string locality_color(std::optional<double> locality) {
  return locality ? pick(locality_scale(), *locality) : "#ffffff";
}

HealthStyle health_style(Health health) {
  switch (health) {
    case Health::warning:
      return {"#ff7f00", 3.5};
    case Health::critical:
      return {"#e31a1c", 4.5};
    case Health::ok:
    case Health::unknown:
      break;
  }
  return {"#404040", 1.0};
}

double capacity_penwidth(std::optional<double> capacity_bps) {
  if (!capacity_bps || *capacity_bps <= 0) return 1.0;
  const double ratio = std::max(1.0, *capacity_bps / 25e9);
  return std::min(10.0, 1.0 + 0.8 * std::log2(ratio));
}

}  // namespace ibpm::viz
