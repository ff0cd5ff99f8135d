// SPDX-License-Identifier: MIT
// Flows routed as the switches forward them: the route of each flow traced through the
// forwarding tables OpenSM programmed (routes/route_map.hpp), its hops mapped onto the net
// topology by node name (ibsim's node ids are the NodeDescriptions a discovery reads).
#pragma once

#include <vector>

#include "fabric/fabric.hpp"
#include "routes/forwarding_tables.hpp"
#include "sim/net_topology.hpp"
#include "sim/traffic.hpp"

namespace ibpm::sim {

// One path per flow: the egress ports it leaves from, host port first (as TrafficPattern::path).
// `fabric` is the running simulation as discovered (its GUIDs and LIDs), `tables` its switches'
// LFTs. Throws std::invalid_argument naming the flow when a host is not in the fabric or has no
// LID, a route does not reach the destination (and why), or a hop's port is not a cabled port of
// the topology.
std::vector<std::vector<NetPort>> lft_paths(const NetTopology& topology, const Fabric& fabric,
                                            const routes::ForwardingTables& tables,
                                            const std::vector<Flow>& flows);

}  // namespace ibpm::sim
