// SPDX-License-Identifier: MIT

#include "poll/target.hpp"

#include <charconv>

namespace ibpm::poll {

namespace {

std::optional<unsigned> parse_lid(std::string_view text) {
  unsigned lid = 0;
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), lid);
  if (error != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return lid;
}

const Node* node_with_lid(const Fabric& fabric, unsigned lid) {
  for (const Node& node : fabric.nodes())
    for (const Port& port : node.ports)
      if (port.present && port.lid && lid >= *port.lid && lid - *port.lid < (1u << port.lmc))
        return &node;
  return nullptr;
}

const Node* node_with_guid(const Fabric& fabric, Guid guid) {
  if (const Node* node = fabric.find(guid)) return node;
  for (const Node& node : fabric.nodes())  // a port GUID names its node too
    for (const Port& port : node.ports)
      if (port.present && port.guid && *port.guid == guid) return &node;
  return nullptr;
}

}  // namespace

const Node& resolve_node(const Fabric& fabric, const NodeNameMap* names, std::string_view text) {
  const std::string quoted = "'" + std::string(text) + "'";
  if (text.empty()) throw TargetError("empty node name");
  if (text.starts_with("0x") || text.starts_with("0X")) {
    const auto guid = parse_guid(text);
    if (!guid) throw TargetError("not a GUID: " + quoted);
    if (const Node* node = node_with_guid(fabric, *guid)) return *node;
    throw TargetError("no node or port with GUID " + format_guid(*guid) + " in the topology");
  }
  std::vector<const Node*> matches;
  for (const Node& node : fabric.nodes()) {
    const std::string* mapped = names ? names->find(node.guid) : nullptr;
    if ((mapped && *mapped == text) || node.description == text) matches.push_back(&node);
  }
  if (const auto lid = parse_lid(text)) {
    const Node* by_lid = node_with_lid(fabric, *lid);
    // A node named "3" and LID 3 are two readings of one word: never pick one silently.
    if (!matches.empty() && by_lid && matches.front() != by_lid)
      throw TargetError(quoted + " is both LID " + std::to_string(*lid) + " (" +
                        format_guid(by_lid->guid) + ") and the name of " +
                        format_guid(matches.front()->guid) + ": name the node by GUID");
    if (by_lid) return *by_lid;
    if (matches.empty())
      throw TargetError("no port with LID " + std::to_string(*lid) + " in the topology");
  }
  if (matches.size() == 1) return *matches.front();
  if (matches.empty()) throw TargetError("no node named " + quoted + " in the topology");
  throw TargetError("the name " + quoted + " matches " + std::to_string(matches.size()) +
                    " nodes: name it by GUID (e.g. " + format_guid(matches.front()->guid) + ")");
}

std::optional<unsigned> agent_lid(const Node& node, PortNumber port) {
  const Port* lid_port = node.type == NodeType::sw ? node.port(0) : node.port(port);
  if (!lid_port || !lid_port->lid) return std::nullopt;
  return *lid_port->lid;
}

PortTarget port_target(const Fabric& fabric, const NodeNameMap* names, const Node& node,
                       PortNumber port) {
  const Port* p = node.port(port);
  const std::string name = port_name(fabric, PortRef{node.guid, port}, names);
  if (port == 0 || !p || !p->present)
    throw TargetError(name + " does not exist (the node has " + std::to_string(node.port_count) +
                      " ports)");
  const auto lid = agent_lid(node, port);
  if (!lid) throw TargetError(name + " has no LID in the topology");
  PortTarget target;
  target.node = node.guid;
  target.type = node.type;
  target.port = port;
  target.lid = *lid;
  target.name = name;
  if (const auto remote = fabric.remote(PortRef{node.guid, port})) {
    target.remote_name = port_name(fabric, *remote, names);
    target.remote = *remote;
    if (const Node* far = fabric.find(remote->node)) target.remote_type = far->type;
  }
  target.width = p->width;
  target.speed = p->speed;
  return target;
}

std::vector<PortTarget> connected_port_targets(const Fabric& fabric, const NodeNameMap* names,
                                               const Node& node) {
  std::vector<PortTarget> targets;
  for (const Port& port : node.ports)
    if (port.present && port.number != 0 && port.link)
      targets.push_back(port_target(fabric, names, node, port.number));
  return targets;
}

}  // namespace ibpm::poll
