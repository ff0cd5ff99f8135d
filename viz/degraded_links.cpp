// SPDX-License-Identifier: MIT

#include "viz/degraded_links.hpp"

#include "topology/link_speed_check.hpp"

namespace ibpm::viz {

std::size_t mark_degraded_links(const Fabric& fabric, MapAnnotations& annotations,
                                const Fabric* baseline) {
  size_to(annotations, fabric);
  std::size_t marked = 0;
  for (std::size_t i = 0; i < fabric.links().size(); ++i) {
    const topology::Degradation d = topology::check_link_rate(
        fabric, fabric.links()[i], topology::baseline_rate(baseline, fabric.links()[i]));
    if (!d) continue;
    annotations.links[i].degraded = true;
    annotations.links[i].degradation = d.describe();
    ++marked;
  }
  return marked;
}

}  // namespace ibpm::viz
