// SPDX-License-Identifier: MIT
// Links running below the width or speed both of their ends enable, or below what the same cable
// ran at in a baseline, from the topology alone (no counter history needed): marked on the map
// as degraded.
#pragma once

#include "fabric/fabric.hpp"
#include "viz/map_model.hpp"

namespace ibpm::viz {

// Sets LinkAnnotation::degraded and ::degradation for every link check_link_rate flags.
// Returns how many links were marked.
std::size_t mark_degraded_links(const Fabric& fabric, MapAnnotations& annotations,
                                const Fabric* baseline = nullptr);

}  // namespace ibpm::viz
