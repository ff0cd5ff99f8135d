// SPDX-License-Identifier: MIT
// Every port a sweep polls: each cabled port of each node of the chosen types, named as the
// checks name them. A port whose agent has no LID in the topology cannot be queried; it is
// listed apart so the report can say so.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "fabric/fabric.hpp"
#include "fabric/node_name_map.hpp"
#include "poll/target.hpp"

namespace ibpm::sweep {

enum class NodeFilter { all, switches, cas };

// "all", "switches" (or "switch"), "cas" (or "ca"); throws std::invalid_argument otherwise.
NodeFilter parse_node_filter(std::string_view text);
bool accepts(NodeFilter filter, NodeType type);

struct FabricTargets {
  std::vector<poll::PortTarget> targets;  // nodes in fabric order, ports in port order
  std::vector<std::string> without_lid;   // "host17[1]": cabled, but no LID to query
};

FabricTargets fabric_port_targets(const Fabric& fabric, const NodeNameMap* names,
                                  NodeFilter filter);

}  // namespace ibpm::sweep
