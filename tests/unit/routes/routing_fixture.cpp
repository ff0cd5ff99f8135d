// SPDX-License-Identifier: MIT

#include "routing_fixture.hpp"

#include <catch2/catch.hpp>
#include <deque>
#include <limits>

#include "sim/fat_tree.hpp"
#include "sim/net_fabric.hpp"

namespace ibpm::routes::test {

Fabric fat_tree_fabric(int hosts, int radix, int levels) {
  sim::FatTreeOptions options;
  options.hosts = hosts;
  options.radix = radix;
  options.levels = levels;
  return sim::net_fabric(sim::make_fat_tree(options).topology);
}

ForwardingTables min_hop_tables(const Fabric& fabric) {
  const auto& nodes = fabric.nodes();
  unsigned top = 0;
  for (const Node& n : nodes)
    for (const Port& p : n.ports)
      if (p.present && p.lid) top = std::max<unsigned>(top, *p.lid);
  ForwardingTables tables;
  for (const Node& n : nodes)
    if (n.type == NodeType::sw)
      tables.switches[n.guid] = {n.guid, *n.port(0)->lid,
                                 std::vector<PortNumber>(top + 1, kNoRoute)};

  constexpr int kFar = std::numeric_limits<int>::max();
  for (const Node& dest : nodes) {
    for (const Port& dport : dest.ports) {
      if (!dport.present || !dport.lid || (dest.type == NodeType::ca && dport.number == 0))
        continue;
      const unsigned lid = *dport.lid;
      if (dest.type == NodeType::sw) {
        tables.switches[dest.guid].ports[lid] = 0;
        continue;
      }
      const auto attach = fabric.remote({dest.guid, dport.number});
      if (!attach || fabric.node(attach->node).type != NodeType::sw) continue;
      std::vector<int> distance(nodes.size(), kFar);
      std::deque<std::size_t> queue;
      distance[fabric.index_of(attach->node)] = 0;
      queue.push_back(fabric.index_of(attach->node));
      while (!queue.empty()) {
        const std::size_t at = queue.front();
        queue.pop_front();
        for (const Port& p : nodes[at].ports) {
          const auto peer = p.present ? fabric.remote({nodes[at].guid, p.number}) : std::nullopt;
          if (!peer || fabric.node(peer->node).type != NodeType::sw) continue;
          const std::size_t next = fabric.index_of(peer->node);
          if (distance[next] != kFar) continue;
          distance[next] = distance[at] + 1;
          queue.push_back(next);
        }
      }
      for (std::size_t i = 0; i < nodes.size(); ++i) {
        if (nodes[i].type != NodeType::sw || distance[i] == kFar) continue;
        std::vector<PortNumber> closer;
        for (const Port& p : nodes[i].ports) {
          const auto peer = p.present ? fabric.remote({nodes[i].guid, p.number}) : std::nullopt;
          if (!peer) continue;
          if (distance[i] == 0 && peer->node == dest.guid && peer->port == dport.number)
            closer = {p.number};
          else if (distance[i] > 0 && fabric.node(peer->node).type == NodeType::sw &&
                   distance[fabric.index_of(peer->node)] == distance[i] - 1)
            closer.push_back(p.number);
        }
        if (!closer.empty())
          tables.switches[nodes[i].guid].ports[lid] = closer[lid % closer.size()];
      }
    }
  }
  return tables;
}

const Node& node_named(const Fabric& fabric, const std::string& name) {
  for (const Node& n : fabric.nodes())
    if (n.description == name) return n;
  FAIL("no node " << name);
  throw std::logic_error("unreachable");
}

}  // namespace ibpm::routes::test
