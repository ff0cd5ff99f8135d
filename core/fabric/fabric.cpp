// SPDX-License-Identifier: MIT

#include "fabric/fabric.hpp"

#include <stdexcept>
#include <utility>

#include "fabric/node_name_map.hpp"

namespace ibpm {
namespace {

// Port numbers 0..port_count, each entry numbered, nothing known about the new ones yet.
void grow_ports(Node& node, int port_count) {
  std::size_t old = node.ports.size();
  node.port_count = port_count;
  node.ports.resize(port_count + 1);
  for (std::size_t i = old; i < node.ports.size(); ++i)
    node.ports[i].number = static_cast<PortNumber>(i);
}

}  // namespace

LinkState link_state_of(const Port& port) {
  return {port.state, port.width, port.speed, port.widths_enabled, port.speeds_enabled};
}

const Port* Node::port(PortNumber number) const {
  if (number >= ports.size() || !ports[number].present) return nullptr;
  return &ports[number];
}

Node& Fabric::add_node(Guid guid, NodeType type, std::string description, int port_count) {
  if (auto it = by_guid_.find(guid); it != by_guid_.end()) {
    Node& existing = nodes_[it->second];
    if (port_count > existing.port_count) grow_ports(existing, port_count);
    return existing;
  }
  Node node;
  node.guid = guid;
  node.type = type;
  node.description = std::move(description);
  grow_ports(node, port_count);
  by_guid_.emplace(guid, nodes_.size());
  nodes_.push_back(std::move(node));
  return nodes_.back();
}

const Node* Fabric::find(Guid guid) const {
  auto it = by_guid_.find(guid);
  return it == by_guid_.end() ? nullptr : &nodes_[it->second];
}

Node* Fabric::find(Guid guid) {
  auto it = by_guid_.find(guid);
  return it == by_guid_.end() ? nullptr : &nodes_[it->second];
}

const Node& Fabric::node(Guid guid) const { return nodes_.at(index_of(guid)); }

std::size_t Fabric::index_of(Guid guid) const {
  auto it = by_guid_.find(guid);
  if (it == by_guid_.end()) throw std::out_of_range("no node " + format_guid(guid));
  return it->second;
}

Port& Fabric::port(PortRef ref) {
  Node* n = find(ref.node);
  if (!n) throw std::out_of_range("no node " + format_guid(ref.node));
  if (ref.port >= n->ports.size()) grow_ports(*n, ref.port);
  Port& p = n->ports[ref.port];
  p.present = true;
  return p;
}

Port* Fabric::find_port_mutable(PortRef ref) {
  return const_cast<Port*>(std::as_const(*this).find_port(ref));
}

const Port* Fabric::find_port(PortRef ref) const {
  const Node* n = find(ref.node);
  return n ? n->port(ref.port) : nullptr;
}

ConnectResult Fabric::connect(PortRef a, PortRef b) {
  // Create both ports before holding references: a self-loop to a higher port number grows
  // the node's port table and would leave a reference to the first port dangling.
  port(a);
  port(b);
  Port& pa = *find_port_mutable(a);
  Port& pb = *find_port_mutable(b);
  if (pa.link && pb.link && *pa.link == *pb.link) return ConnectResult::already_known;
  if (pa.link || pb.link || a == b) return ConnectResult::conflict;
  std::size_t index = links_.size();
  links_.push_back({a, b});
  pa.link = index;
  pb.link = index;
  return ConnectResult::added;
}

std::optional<PortRef> Fabric::remote(PortRef ref) const {
  const Port* p = find_port(ref);
  if (!p || !p->link) return std::nullopt;
  const Link& l = links_[*p->link];
  return l.a == ref ? l.b : l.a;
}

std::size_t Fabric::count(NodeType type) const {
  std::size_t n = 0;
  for (const Node& node : nodes_) n += node.type == type;
  return n;
}

std::string display_name(const Node& node, const NodeNameMap* names) {
  if (names) {
    if (const std::string* mapped = names->find(node.guid)) return *mapped;
  }
  return node.description;
}

std::string port_name(const Fabric& fabric, PortRef ref, const NodeNameMap* names) {
  const Node* n = fabric.find(ref.node);
  std::string base = n ? display_name(*n, names) : format_guid(ref.node);
  return base + "[" + std::to_string(ref.port) + "]";
}

}  // namespace ibpm
