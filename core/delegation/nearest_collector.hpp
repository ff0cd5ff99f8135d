// SPDX-License-Identifier: MIT
// Responsibility by distance, as in scalable network monitoring: each collector looks after the
// part of the fabric closest to it, so its queries cross the fewest links.
#pragma once

#include <map>
#include <vector>

#include "fabric/fabric.hpp"

namespace ibpm::delegation {

// For every node, by its position in fabric.nodes(): the shards whose collector (shard -> node
// GUID) is fewest hops away, in ascending shard order; empty for a node no collector reaches.
// Throws std::invalid_argument when a collector is not in the fabric.
std::vector<std::vector<unsigned>> nearest_collector_shards(
    const Fabric& fabric, const std::map<unsigned, Guid>& collectors);

}  // namespace ibpm::delegation
