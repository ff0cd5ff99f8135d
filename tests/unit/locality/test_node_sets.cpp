// SPDX-License-Identifier: MIT

#include <catch2/catch.hpp>

#include "fabric/graph.hpp"
#include "locality/node_sets.hpp"
#include "sim/fat_tree.hpp"
#include "sim/net_fabric.hpp"

using namespace ibpm;

TEST_CASE("subtrees of a three-level fat tree: leaves, pods (spines merged), the whole tree") {
  auto tree = sim::make_fat_tree({.hosts = 216, .radix = 12, .levels = 3});
  Fabric fabric = sim::net_fabric(tree.topology);
  levels::FabricLevels levels(fabric, make_graph(fabric));
  locality::DownSets down(fabric, levels);
  auto sets = locality::subtree_sets(fabric, down, nullptr);
  // Every leaf, every pod (its spines share one down-set), and all cores together.
  REQUIRE(sets.size() == tree.leaves().size() + static_cast<std::size_t>(tree.pods) + 1);
  CHECK(sets.front().level == 3);
  CHECK(sets.front().hosts.size() == 216);
  CHECK(sets.front().roots.size() == tree.switches[2].size());
  for (const auto& set : sets) {
    INFO(set.name);
    if (set.level == 2) {
      CHECK(set.roots.size() == static_cast<std::size_t>(tree.spines_per_pod));
      // A pod: its hosts, its leaves and its spines, nothing else.
      CHECK(set.members.size() == set.hosts.size() + static_cast<std::size_t>(tree.leaves_per_pod) +
                                      static_cast<std::size_t>(tree.spines_per_pod));
      CHECK(set.name.find(" spines)") != std::string::npos);
    }
    if (set.level == 1) {
      CHECK(set.roots.size() == 1);
      CHECK(set.members.size() == set.hosts.size() + 1);
    }
  }
}

TEST_CASE("an operator's set gets the switches that serve only its hosts") {
  auto tree = sim::make_fat_tree({.hosts = 72, .radix = 12});
  Fabric fabric = sim::net_fabric(tree.topology);
  levels::FabricLevels levels(fabric, make_graph(fabric));
  locality::DownSets down(fabric, levels);
  locality::NodeSet set;
  // Both leaves' hosts and one more host elsewhere.
  for (std::size_t leaf : {0u, 1u})
    for (const auto& host : tree.leaf_hosts[leaf])
      set.hosts.push_back(fabric.index_of(sim::net_node_guid(host, NodeType::ca)));
  set.hosts.push_back(fabric.index_of(sim::net_node_guid(tree.leaf_hosts[5][0], NodeType::ca)));
  locality::add_inner_switches(set, fabric, down);
  CHECK(set.hosts.size() == 13);
  CHECK(set.members.size() == 13 + 2);  // leaf01 and leaf02, not leaf06, no spine
}
