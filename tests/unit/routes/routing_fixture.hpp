// SPDX-License-Identifier: MIT
// Fabrics with forwarding tables for the route tests: a generated fat tree (as net_fabric makes
// it, LIDs included) and min-hop tables computed here, independently of the code under test:
// for each destination LID, a BFS over the switches from the destination's switch; each switch
// forwards to one of its neighbours one hop closer, chosen by the LID (spreading destinations
// over equal ports as OpenSM's min-hop does).
#pragma once

#include <string>

#include "fabric/fabric.hpp"
#include "routes/forwarding_tables.hpp"

namespace ibpm::routes::test {

Fabric fat_tree_fabric(int hosts, int radix, int levels);

ForwardingTables min_hop_tables(const Fabric& fabric);

// The node of that description (REQUIREs it exists).
const Node& node_named(const Fabric& fabric, const std::string& name);

}  // namespace ibpm::routes::test
