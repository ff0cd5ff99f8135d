// SPDX-License-Identifier: MIT

#include "routes/route_map.hpp"

#include "levels/fabric_levels.hpp"

namespace ibpm::routes {

namespace {

std::uint64_t slot_key(std::size_t node_index, PortNumber port) {
  return (static_cast<std::uint64_t>(node_index) << 8) | port;
}

// LID ranges wider than this (LMC > 4) are not indexed LID by LID.
constexpr unsigned kMaxIndexedLmc = 4;

}  // namespace

std::string_view to_string(RouteEnd end) {
  switch (end) {
    case RouteEnd::delivered:
      return "delivered";
    case RouteEnd::no_route:
      return "no route";
    case RouteEnd::dead_end:
      return "egress port without cable";
    case RouteEnd::loop:
      return "loop";
    case RouteEnd::no_table:
      return "forwarding table not read";
    case RouteEnd::wrong_node:
      return "reached a node that does not own the LID";
    case RouteEnd::no_cable:
      return "source port without cable";
  }
  return "?";
}

RouteMap::RouteMap(const Fabric& fabric, const ForwardingTables& tables)
    : fabric_(fabric), tables_(tables) {
  const auto& nodes = fabric.nodes();
  table_of_.resize(nodes.size(), nullptr);
  peers_.resize(nodes.size());
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    const Node& node = nodes[i];
    if (node.type == NodeType::sw) table_of_[i] = tables.find(node.guid);
    peers_[i].resize(node.ports.size());
    for (const Port& port : node.ports) {
      if (!port.present) continue;
      if (port.lid) {
        const unsigned lmc = port.lmc <= kMaxIndexedLmc ? port.lmc : 0;
        for (unsigned l = 0; l < (1u << lmc); ++l)
          lid_owner_.emplace(*port.lid + l, PortRef{node.guid, port.number});
      }
      if (const auto remote = fabric.remote({node.guid, port.number}))
        peers_[i][port.number] = {static_cast<std::int64_t>(fabric.index_of(remote->node)),
                                  remote->port};
    }
  }
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    const Node& node = nodes[i];
    if (!levels::is_host(node)) continue;
    for (const Port& port : node.ports) {
      if (!port.present || !port.lid || port.number == 0) continue;
      const PeerSlot& p = peers_[i][port.number];
      if (p.node < 0) continue;
      Endpoint endpoint;
      endpoint.port = {node.guid, port.number};
      endpoint.lid = *port.lid;
      endpoint.lmc = port.lmc;
      if (nodes[static_cast<std::size_t>(p.node)].type == NodeType::sw)
        endpoint.first_switch = static_cast<std::size_t>(p.node);
      endpoint_index_.emplace(slot_key(i, port.number), endpoints_.size());
      endpoints_.push_back(endpoint);
    }
  }
}

std::optional<std::size_t> RouteMap::endpoint_of(PortRef port) const {
  const Node* node = fabric_.find(port.node);
  if (!node) return std::nullopt;
  const auto it = endpoint_index_.find(slot_key(fabric_.index_of(port.node), port.port));
  if (it == endpoint_index_.end()) return std::nullopt;
  return it->second;
}

std::vector<std::size_t> RouteMap::endpoints_of(Guid node) const {
  std::vector<std::size_t> found;
  const Node* n = fabric_.find(node);
  if (!n) return found;
  for (const Port& port : n->ports)
    if (auto e = endpoint_of({node, port.number})) found.push_back(*e);
  return found;
}

std::optional<PortRef> RouteMap::owner_of(unsigned lid) const {
  const auto it = lid_owner_.find(lid);
  if (it == lid_owner_.end()) return std::nullopt;
  return it->second;
}

std::optional<std::pair<std::size_t, PortNumber>> RouteMap::peer(std::size_t node_index,
                                                                 PortNumber port) const {
  const auto& slots = peers_[node_index];
  if (port >= slots.size() || slots[port].node < 0) return std::nullopt;
  return std::pair{static_cast<std::size_t>(slots[port].node), slots[port].port};
}

bool RouteMap::owns(std::size_t node_index, PortNumber port, unsigned dlid) const {
  const Node& node = fabric_.nodes()[node_index];
  // A switch's LID is its port 0's, whichever port a packet arrives through.
  const Port* p = node.port(node.type == NodeType::sw ? 0 : port);
  if (!p || !p->lid) return false;
  return dlid >= *p->lid && dlid < *p->lid + (1u << p->lmc);
}

RouteMap::Step RouteMap::step(std::size_t node_index, unsigned dlid) const {
  Step step;
  const SwitchTable* table = table_of_[node_index];
  if (!table) {
    step.end = RouteEnd::no_table;
    return step;
  }
  const PortNumber egress = table->egress(dlid);
  if (egress == kNoRoute) {
    step.end = RouteEnd::no_route;
    return step;
  }
  if (egress == 0) {
    step.end = owns(node_index, 0, dlid) ? RouteEnd::delivered : RouteEnd::wrong_node;
    return step;
  }
  const auto next = peer(node_index, egress);
  step.egress = egress;
  if (!next) {
    step.end = RouteEnd::dead_end;
    return step;
  }
  step.forwards = true;
  step.next_node = next->first;
  step.next_port = next->second;
  return step;
}

Route RouteMap::trace(PortRef source, unsigned dlid) const {
  Route route;
  const auto& nodes = fabric_.nodes();
  const std::size_t start = fabric_.index_of(source.node);
  route.stopped_at = source.node;
  const auto first = peer(start, source.port);
  if (!first) {
    route.end = RouteEnd::no_cable;
    return route;
  }
  std::size_t at = first->first;
  PortNumber in = first->second;
  route.hops.push_back({source, {nodes[at].guid, in}});
  std::vector<bool> visited(nodes.size(), false);
  while (true) {
    route.stopped_at = nodes[at].guid;
    if (nodes[at].type != NodeType::sw) {
      route.end = owns(at, in, dlid) ? RouteEnd::delivered : RouteEnd::wrong_node;
      return route;
    }
    if (visited[at]) {
      route.end = RouteEnd::loop;
      return route;
    }
    visited[at] = true;
    const Step s = step(at, dlid);
    if (!s.forwards) {
      route.end = s.end;
      return route;
    }
    route.hops.push_back({{nodes[at].guid, s.egress}, {nodes[s.next_node].guid, s.next_port}});
    at = s.next_node;
    in = s.next_port;
  }
}

}  // namespace ibpm::routes
