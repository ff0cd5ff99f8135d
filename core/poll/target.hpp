// SPDX-License-Identifier: MIT
// What a check polls, found in the topology: a node named by GUID (0x...), LID (decimal) or name
// (node-name-map name or NodeDescription), and the LID its agents answer at.
#pragma once

#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "fabric/fabric.hpp"
#include "fabric/node_name_map.hpp"

namespace ibpm::poll {

class TargetError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Throws TargetError with a one-line reason: nothing matches, or a name matches several nodes.
const Node& resolve_node(const Fabric& fabric, const NodeNameMap* names, std::string_view text);

// The LID a port's PMA and SMA answer at: a switch's port 0 LID for every switch port, a CA
// port's own LID. nullopt when the topology has none.
std::optional<unsigned> agent_lid(const Node& node, PortNumber port);

// One port to poll, with everything the report needs to name it.
struct PortTarget {
  Guid node = 0;
  NodeType type = NodeType::unknown;
  PortNumber port = 0;
  unsigned lid = 0;
  std::string name;               // "leaf01[3]"
  std::string remote_name;        // "spine02[1]", empty when not cabled in the topology
  std::optional<PortRef> remote;  // the far end of the cable, when cabled
  NodeType remote_type = NodeType::unknown;
  std::optional<LinkWidth> width;  // active width/speed the topology saw: the yardstick for
  std::optional<LinkSpeed> speed;  // a degraded link
};

// Throws TargetError when the port does not exist or has no LID.
PortTarget port_target(const Fabric& fabric, const NodeNameMap* names, const Node& node,
                       PortNumber port);

// Every cabled port of the node (port 0 excluded), in port order.
std::vector<PortTarget> connected_port_targets(const Fabric& fabric, const NodeNameMap* names,
                                               const Node& node);

}  // namespace ibpm::poll
