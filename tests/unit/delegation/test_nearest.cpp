// SPDX-License-Identifier: MIT
// --assign nearest: each node to the shard whose collector HCA is fewest hops away, on the
// 648-host fat tree (hosts cn0001..cn0018 under leaf01, cn0163..cn0180 under leaf10).
#include <algorithm>
#include <catch2/catch.hpp>

#include "delegation/bounded_placement.hpp"
#include "test_fabrics.hpp"

using namespace ibpm;
using namespace ibpm::delegation;
using namespace ibpm::delegation::test;

namespace {

const std::string& host_under(std::size_t leaf_index) {
  return full_fat_tree().leaf_hosts.at(leaf_index).front();
}

DelegationFile collectors(std::vector<std::string> hosts) {
  DelegationFile delegation;
  for (std::size_t i = 0; i < hosts.size(); ++i)
    delegation.collectors[static_cast<unsigned>(i + 1)] = guid_of(hosts[i]);
  return delegation;
}

struct NearestSplit {
  NearestSplit(const DelegationFile& delegation, unsigned count, BuildOptions options = {})
      : fabric(fabric_of(full_fat_tree().topology, options)),
        targets(all_targets(fabric)),
        assignment(assign_shards(fabric, targets, count, delegation, AssignMode::nearest)),
        by_port(shard_by_port(targets, assignment)) {}

  std::set<unsigned> shards_of(const std::string& node) const {
    std::set<unsigned> shards;
    for (const auto& [port, shard] : by_port)
      if (port.node == guid_of(node)) shards.insert(shard);
    return shards;
  }

  Fabric fabric;
  std::vector<poll::PortTarget> targets;
  std::vector<unsigned> assignment;
  std::map<PortRef, unsigned> by_port;
};

}  // namespace

TEST_CASE("Each leaf and its hosts go to the collector under that leaf") {
  const NearestSplit split(collectors({host_under(0), host_under(9)}), 2);
  CHECK(split.shards_of("leaf01") == std::set<unsigned>{1});
  CHECK(split.shards_of("leaf10") == std::set<unsigned>{2});
  for (const std::string& host : full_fat_tree().leaf_hosts[0])
    CHECK(split.shards_of(host) == std::set<unsigned>{1});
  for (const std::string& host : full_fat_tree().leaf_hosts[9])
    CHECK(split.shards_of(host) == std::set<unsigned>{2});
}

TEST_CASE("Nodes as near to two collectors are shared evenly between them") {
  // Spines are 2 hops from both collectors, other leaves 3, their hosts 4: all tied, so the
  // even rule among the tied shards decides, and both end near half of the 2592 ports.
  const NearestSplit split(collectors({host_under(0), host_under(9)}), 2);
  std::set<unsigned> spine_shards;
  for (const std::string& spine : full_fat_tree().spines())
    for (unsigned s : split.shards_of(spine)) spine_shards.insert(s);
  CHECK(spine_shards == std::set<unsigned>{1, 2});
  const auto loads = shard_loads(split.assignment, 2);
  CAPTURE(loads);
  CHECK(*std::max_element(loads.begin(), loads.end()) <= load_cap(2592, 2));
  CHECK(*std::min_element(loads.begin(), loads.end()) >= 0.9 * 1296);
}

TEST_CASE("Ties between collectors are broken the same way whatever the node order") {
  const DelegationFile delegation = collectors({host_under(0), host_under(9), host_under(20)});
  const NearestSplit split(delegation, 3);
  for (unsigned seed : {4u, 5u}) {
    CAPTURE(seed);
    CHECK(NearestSplit(delegation, 3, {{}, seed}).by_port == split.by_port);
  }
}

TEST_CASE("With a collector under every leaf each leaf's hosts stay local") {
  // Shard k's collector under leaf k: every leaf and its hosts are nearest to exactly one.
  std::vector<std::string> hosts;
  for (std::size_t leaf = 0; leaf < 6; ++leaf) hosts.push_back(host_under(leaf));
  const NearestSplit split(collectors(hosts), 6);
  for (std::size_t leaf = 0; leaf < 6; ++leaf) {
    CAPTURE(leaf);
    const std::set<unsigned> expected{static_cast<unsigned>(leaf + 1)};
    CHECK(split.shards_of(full_fat_tree().leaves()[leaf]) == expected);
    for (const std::string& host : full_fat_tree().leaf_hosts[leaf])
      CHECK(split.shards_of(host) == expected);
  }
}

TEST_CASE("Pins win over the nearest collector") {
  DelegationFile delegation = collectors({host_under(0), host_under(9)});
  delegation.pins = {Pin{2, guid_of("leaf01"), {}}, Pin{1, guid_of(host_under(9)), {}}};
  const NearestSplit split(delegation, 2);
  CHECK(split.shards_of("leaf01") == std::set<unsigned>{2});
  CHECK(split.shards_of(host_under(9)) == std::set<unsigned>{1});
  CHECK(split.shards_of(full_fat_tree().leaf_hosts[0][1]) == std::set<unsigned>{1});
}

TEST_CASE("Nodes no collector reaches are split evenly") {
  // Two hosts cabled to each other and to nothing else.
  Fabric fabric = fabric_of(full_fat_tree().topology);
  const Guid island_a = 0x0002c90300aaaa01, island_b = 0x0002c90300aaaa02;
  fabric.add_node(island_a, NodeType::ca, "island-a", 1);
  fabric.port({island_a, 1}).lid = 2000;
  fabric.add_node(island_b, NodeType::ca, "island-b", 1);
  fabric.port({island_b, 1}).lid = 2001;
  fabric.connect({island_a, 1}, {island_b, 1});
  const auto targets = all_targets(fabric);
  const auto assignment = assign_shards(
      fabric, targets, 2, collectors({host_under(0), host_under(9)}), AssignMode::nearest);
  std::size_t island_ports = 0;
  for (std::size_t i = 0; i < targets.size(); ++i) {
    CHECK((assignment[i] == 1 || assignment[i] == 2));
    island_ports += targets[i].node == island_a || targets[i].node == island_b;
  }
  CHECK(island_ports == 2);
}

TEST_CASE("Nearest mode needs a collector for every shard") {
  const Fabric fabric = fabric_of(full_fat_tree().topology);
  const auto targets = all_targets(fabric);
  CHECK_THROWS_AS(assign_shards(fabric, targets, 2, {}, AssignMode::nearest),
                  std::invalid_argument);
  CHECK_THROWS_AS(assign_shards(fabric, targets, 3, collectors({host_under(0), host_under(9)}),
                                AssignMode::nearest),
                  std::invalid_argument);
  CHECK_THROWS_AS(assign_shards(fabric, targets, 1, collectors({host_under(0), host_under(9)}),
                                AssignMode::nearest),
                  std::invalid_argument);
  DelegationFile stranger;
  stranger.collectors[1] = 0x0002c903deadbeef;  // not in the fabric
  CHECK_THROWS_AS(assign_shards(fabric, targets, 1, stranger, AssignMode::nearest),
                  std::invalid_argument);
  // Even mode does not look at the collectors.
  CHECK_NOTHROW(assign_shards(fabric, targets, 3, collectors({host_under(0)}), AssignMode::even));
}
