#include "fabric/fabric.hpp"

#include <stdexcept>

#include "fabric/node_name_map.hpp"

namespace ibpm {

const Port* Node::port(PortNumber number) const {
  if (number >= ports.size() || !ports[number].present) return nullptr;
  return &ports[number];
}

Node& Fabric::add_node(Guid guid, NodeType type, std::string description, int port_count) {
  if (auto it = by_guid_.find(guid); it != by_guid_.end()) {
    Node& existing = nodes_[it->second];
    if (port_count > existing.port_count) {
      existing.port_count = port_count;
      existing.ports.resize(port_count + 1);
    }
    return existing;
  }
  Node node;
  node.guid = guid;
  node.type = type;
  node.description = std::move(description);
  node.port_count = port_count;
  node.ports.resize(port_count + 1);
  for (int i = 0; i <= port_count; ++i) node.ports[i].number = static_cast<PortNumber>(i);
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
  if (ref.port >= n->ports.size()) {
    std::size_t old = n->ports.size();
    n->ports.resize(ref.port + 1);
    for (std::size_t i = old; i < n->ports.size(); ++i)
      n->ports[i].number = static_cast<PortNumber>(i);
    n->port_count = ref.port;
  }
  Port& p = n->ports[ref.port];
  p.present = true;
  return p;
}

const Port* Fabric::find_port(PortRef ref) const {
  const Node* n = find(ref.node);
  return n ? n->port(ref.port) : nullptr;
}

ConnectResult Fabric::connect(PortRef a, PortRef b) {
  Port& pa = port(a);
  Port& pb = port(b);
  if (pa.link && pb.link && *pa.link == *pb.link) return ConnectResult::already_known;
  if (pa.link || pb.link || a == b) return ConnectResult::conflict;
  std::size_t index = links_.size();
  links_.push_back({a, b});
  // port() may have reallocated a node's port table: look both ends up again.
  port(a).link = index;
  port(b).link = index;
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
