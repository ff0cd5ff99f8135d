// SPDX-License-Identifier: MIT

#include "locality/set_cables.hpp"

#include "levels/fabric_levels.hpp"

namespace ibpm::locality {

PortRef far_end(const Link& link, const PortRef& end) { return link.a == end ? link.b : link.a; }

SetCableFinder::SetCableFinder(const Fabric& fabric)
    : fabric_(fabric), inside_(fabric.nodes().size()) {
  ends_.reserve(fabric.links().size());
  for (const Link& link : fabric.links())
    ends_.emplace_back(fabric.index_of(link.a.node), fabric.index_of(link.b.node));
}

SetCables SetCableFinder::of(const NodeSet& set) {
  const auto& nodes = fabric_.nodes();
  const auto& links = fabric_.links();
  SetCables cables;
  inside_.reset();
  for (std::size_t m : set.members) inside_.set(m);
  for (std::size_t h : set.hosts) {
    const Node& host = nodes[h];
    host.for_each_port([&](const Port& port) {
      if (port.link) cables.host.emplace_back(*port.link, PortRef{host.guid, port.number});
    });
  }
  for (std::size_t l = 0; l < links.size(); ++l) {
    const auto [a, b] = ends_[l];
    if (inside_[a] == inside_[b]) continue;
    const std::size_t in_node = inside_[a] ? a : b, out_node = inside_[a] ? b : a;
    // An aggregation node computes inside its switch: its cable is not a border.
    if (levels::is_aggregation_node(nodes[out_node]) || levels::is_aggregation_node(nodes[in_node]))
      continue;
    cables.border.emplace_back(l, inside_[a] ? links[l].a : links[l].b);
  }
  return cables;
}

}  // namespace ibpm::locality
