// SPDX-License-Identifier: MIT

#include "sweep/fabric_targets.hpp"

#include <stdexcept>

namespace ibpm::sweep {

NodeFilter parse_node_filter(std::string_view text) {
  if (text == "all") return NodeFilter::all;
  if (text == "switches" || text == "switch") return NodeFilter::switches;
  if (text == "cas" || text == "ca") return NodeFilter::cas;
  throw std::invalid_argument("node type '" + std::string(text) + "': use all, switches or cas");
}

bool accepts(NodeFilter filter, NodeType type) {
  switch (filter) {
    case NodeFilter::all:
      return true;
    case NodeFilter::switches:
      return type == NodeType::sw;
    case NodeFilter::cas:
      return type == NodeType::ca;
  }
  return false;
}

FabricTargets fabric_port_targets(const Fabric& fabric, const NodeNameMap* names,
                                  NodeFilter filter) {
  FabricTargets result;
  for (const Node& node : fabric.nodes()) {
    if (!accepts(filter, node.type)) continue;
    for (const Port& port : node.ports) {
      if (!port.present || port.number == 0 || !port.link) continue;
      if (!poll::agent_lid(node, port.number)) {
        result.without_lid.push_back(port_name(fabric, {node.guid, port.number}, names));
        continue;
      }
      result.targets.push_back(poll::port_target(fabric, names, node, port.number));
    }
  }
  return result;
}

}  // namespace ibpm::sweep
