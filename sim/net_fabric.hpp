// SPDX-License-Identifier: MIT
// A simulated fabric's cabling as the Fabric model the rest of ibpm works on, without starting
// ibsim: node GUIDs follow from names (a vendor prefix and a hash), LIDs from positions in the
// topology, each link's active width and speed from what both ends enable (as ibsim activates
// them). So a generated fat tree can be written as an ibnetdiscover dump, or used by tests.
#pragma once

#include <optional>
#include <set>
#include <string>
#include <string_view>

#include "fabric/fabric.hpp"
#include "sim/net_topology.hpp"

namespace ibpm::sim {

// The GUID a node of this name gets: a Mellanox/NVIDIA OUI (switches 0x7cfe90, CAs 0x0002c9)
// and 40 bits of the name's FNV-1a hash.
Guid net_node_guid(std::string_view name, NodeType type);

struct NetFabricOptions {
  std::set<std::string> without;         // nodes left out, with their cables
  std::optional<unsigned> shuffle_seed;  // add nodes and cables in a shuffled order
};

// Switch port 0 and CA ports carry LIDs (position in the topology + 1, while below the
// multicast range); CA ports carry port GUIDs (node GUID + port number).
Fabric net_fabric(const NetTopology& topology, const NetFabricOptions& options = {});

}  // namespace ibpm::sim
