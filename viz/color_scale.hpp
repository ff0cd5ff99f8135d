// SPDX-License-Identifier: MIT
// The map's visual encodings, shared by the drawing and its legend so they cannot disagree:
// link colour by utilization, switch fill by traffic locality, node border by health, line width
// by capacity.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "viz/map_model.hpp"

namespace ibpm::viz {

struct ColorBin {
  double below;       // upper bound (exclusive) of the bin; the last bin takes everything above
  std::string color;  // "#rrggbb"
  std::string label;  // "25-50 %"
};

inline const std::string kNoDataColor = "#b4b4b4";  // grey: nothing measured

// Utilization 0..1: blue (idle) through green and yellow to dark red (saturated).
const std::vector<ColorBin>& utilization_scale();
std::string utilization_color(std::optional<double> utilization);

// Locality l 0..1 of a subtree root: purple (traffic leaves) to green (stays inside).
const std::vector<ColorBin>& locality_scale();
std::string locality_color(std::optional<double> locality);

struct HealthStyle {
  std::string color;
  double penwidth;
};
HealthStyle health_style(Health health);

// Line width for a capacity in bit/s (a folded edge: the sum of its cables): 1 up to 25 Gb/s,
// then growing with the logarithm, at most 10. nullopt (speed unknown): 1.
double capacity_penwidth(std::optional<double> capacity_bps);

inline const std::string kErrorColor = "#e31a1c";  // labels of links with errors or degraded

}  // namespace ibpm::viz
