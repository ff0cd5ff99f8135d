// SPDX-License-Identifier: MIT
// Pins: switches, port lists and LIDs an operator puts on a shard; the rest still even, with the
// pinned ports counted in the loads; the nodes a pinned port list splits, and which shard speaks
// for each.
#include <algorithm>
#include <catch2/catch.hpp>

#include "delegation/bounded_placement.hpp"
#include "delegation/port_list.hpp"
#include "delegation/split_nodes.hpp"
#include "test_fabrics.hpp"

using namespace ibpm;
using namespace ibpm::delegation;
using namespace ibpm::delegation::test;

namespace {

struct Split {
  Split(const DelegationFile& delegation, unsigned count)
      : fabric(fabric_of(full_fat_tree().topology)),
        targets(all_targets(fabric)),
        assignment(assign_shards(fabric, targets, count, delegation, AssignMode::even)),
        loads(shard_loads(assignment, count)) {}

  // The shards of a node's ports, by port.
  std::map<PortNumber, unsigned> shards_of(const std::string& node) const {
    std::map<PortNumber, unsigned> shards;
    for (std::size_t i = 0; i < targets.size(); ++i)
      if (targets[i].node == guid_of(node)) shards[targets[i].port] = assignment[i];
    return shards;
  }
  std::size_t most() const { return *std::max_element(loads.begin(), loads.end()); }

  Fabric fabric;
  std::vector<poll::PortTarget> targets;
  std::vector<unsigned> assignment;
  std::vector<std::size_t> loads;
};

bool all_on(const std::map<PortNumber, unsigned>& shards, unsigned shard) {
  return !shards.empty() && std::all_of(shards.begin(), shards.end(),
                                        [&](const auto& s) { return s.second == shard; });
}

Pin pin(unsigned shard, const std::string& node, std::vector<PortNumber> ports = {}) {
  return Pin{shard, guid_of(node), std::move(ports)};
}

}  // namespace

TEST_CASE("A pinned switch lands on its shard") {
  for (unsigned shard : {1u, 2u, 3u, 4u}) {
    DelegationFile delegation;
    delegation.pins = {pin(shard, "spine01"), pin(shard, "leaf17")};
    const Split split(delegation, 4);
    CHECK(all_on(split.shards_of("spine01"), shard));
    CHECK(all_on(split.shards_of("leaf17"), shard));
    CHECK(split.most() <= load_cap(split.targets.size(), 4));
  }
}

TEST_CASE("A pinned port list splits a node as asked") {
  DelegationFile delegation;
  std::vector<PortNumber> low(18), high(18);
  for (int p = 0; p < 18; ++p) {
    low[p] = static_cast<PortNumber>(p + 1);
    high[p] = static_cast<PortNumber>(p + 19);
  }
  delegation.pins = {pin(3, "leaf05", low), pin(1, "spine02", {1, 2, 3})};
  const Split split(delegation, 4);
  const auto leaf = split.shards_of("leaf05");
  REQUIRE(leaf.size() == 36);
  for (PortNumber p : low) CHECK(leaf.at(p) == 3);
  // The unpinned ports stay together, wherever the even rule puts them.
  std::set<unsigned> rest;
  for (PortNumber p : high) rest.insert(leaf.at(p));
  CHECK(rest.size() == 1);
  const auto spine = split.shards_of("spine02");
  CHECK(spine.at(1) == 1);
  CHECK(spine.at(2) == 1);
  CHECK(spine.at(3) == 1);
  CHECK(split.most() <= load_cap(split.targets.size(), 4));
}

TEST_CASE("Split nodes are the pinned port lists' nodes, each spoken for by one shard") {
  // leaf05: ports 1-4 pinned to shard 3, the other 32 to shard 1.
  std::vector<PortNumber> rest_ports;
  for (int p = 5; p <= 36; ++p) rest_ports.push_back(static_cast<PortNumber>(p));
  DelegationFile delegation;
  delegation.pins = {pin(3, "leaf05", {1, 2, 3, 4}), pin(1, "leaf05", rest_ports),
                     pin(2, "spine01")};
  const Split split(delegation, 4);
  const SplitNodes nodes = split_nodes(split.targets, split.assignment);
  const unsigned rest = 1;
  REQUIRE(nodes.size() == 1);  // a whole pinned switch is not split
  const std::vector<PortShard>& leaf = nodes.at(guid_of("leaf05"));
  REQUIRE(leaf.size() == 36);
  CHECK(leaf.front().port == 1);  // in port order
  CHECK(leaf.back().port == 36);
  CHECK(owning_shard(leaf) == rest);  // 32 ports against 4
  CHECK(ports_elsewhere(leaf, rest) == "1-4 read by shard 3");
  CHECK(ports_elsewhere(leaf, 3) == "5-36 read by shard " + std::to_string(rest));
}

TEST_CASE("Port lists are written as operators write them") {
  CHECK(format_port_list({}) == "");
  CHECK(format_port_list({7}) == "7");
  CHECK(format_port_list({1, 2, 3, 5, 7, 8}) == "1-3,5,7-8");
  CHECK(parse_port_list(format_port_list({1, 2, 3, 5, 7, 8, 20})) ==
        std::vector<PortNumber>{1, 2, 3, 5, 7, 8, 20});
  // A tie goes to the lowest shard.
  CHECK(owning_shard({{1, 4}, {2, 2}, {3, 4}, {4, 2}}) == 2);
}

TEST_CASE("Pinned ports count in the loads") {
  // Six spines (216 ports) on shard 1 of 4: the even rule fills shard 1 less so that every
  // shard still ends near 648.
  DelegationFile delegation;
  for (const char* spine : {"spine01", "spine02", "spine03", "spine04", "spine05", "spine06"})
    delegation.pins.push_back(pin(1, spine));
  const Split split(delegation, 4);
  const auto [least, most] = std::minmax_element(split.loads.begin(), split.loads.end());
  CAPTURE(split.loads);
  CHECK(*most <= load_cap(split.targets.size(), 4));
  CHECK(*least >= 0.9 * 648);
}

TEST_CASE("A shard whose pins exceed its share gets nothing else") {
  // 21 switches of 36 ports = 756 ports, above the cap of 713 for shard 1 of 4.
  DelegationFile delegation;
  for (int i = 1; i <= 21; ++i) delegation.pins.push_back(pin(1, full_fat_tree().leaves()[i - 1]));
  const Split split(delegation, 4);
  CHECK(split.loads[0] == 21 * 36);
  const std::size_t rest = (2592 - 21 * 36) / 3;  // 612
  for (unsigned s = 1; s < 4; ++s) {
    CAPTURE(s);
    CHECK(split.loads[s] >= rest - rest / 10);
    CHECK(split.loads[s] <= rest + rest / 10);
  }
}

TEST_CASE("A pin to a shard beyond N is rejected") {
  const Fabric fabric = fabric_of(full_fat_tree().topology);
  const auto targets = all_targets(fabric);
  DelegationFile delegation;
  delegation.pins = {pin(5, "spine01")};
  CHECK_THROWS_AS(assign_shards(fabric, targets, 4, delegation, AssignMode::even),
                  std::invalid_argument);
  CHECK_NOTHROW(assign_shards(fabric, targets, 5, delegation, AssignMode::even));
  delegation.pins = {pin(0, "spine01")};
  CHECK_THROWS_AS(assign_shards(fabric, targets, 4, delegation, AssignMode::even),
                  std::invalid_argument);
}

TEST_CASE("Overlapping pins are rejected") {
  const Fabric fabric = fabric_of(full_fat_tree().topology);
  const auto targets = all_targets(fabric);
  DelegationFile delegation;
  delegation.pins = {pin(1, "leaf01", {1, 2}), pin(2, "leaf01", {2, 3})};
  CHECK_THROWS_AS(assign_shards(fabric, targets, 4, delegation, AssignMode::even),
                  std::invalid_argument);
  delegation.pins = {pin(1, "leaf01", {1, 2}), pin(2, "leaf01")};
  CHECK_THROWS_AS(assign_shards(fabric, targets, 4, delegation, AssignMode::even),
                  std::invalid_argument);
  delegation.pins = {pin(1, "leaf01"), pin(2, "leaf01", {5})};
  CHECK_THROWS_AS(assign_shards(fabric, targets, 4, delegation, AssignMode::even),
                  std::invalid_argument);
}

TEST_CASE("A delegation file written for another N is rejected") {
  const Fabric fabric = fabric_of(full_fat_tree().topology);
  const auto targets = all_targets(fabric);
  DelegationFile delegation;
  delegation.shards = 4;
  CHECK_THROWS_AS(assign_shards(fabric, targets, 3, delegation, AssignMode::even),
                  std::invalid_argument);
  CHECK_NOTHROW(assign_shards(fabric, targets, 4, delegation, AssignMode::even));
}

TEST_CASE("Pins of nodes that are not targets change nothing") {
  const Fabric fabric = fabric_of(full_fat_tree().topology);
  std::vector<poll::PortTarget> targets;
  for (const poll::PortTarget& t : all_targets(fabric))
    if (t.node != guid_of("spine01") && !(t.node == guid_of("leaf01") && t.port > 18))
      targets.push_back(t);
  DelegationFile delegation;
  delegation.pins = {pin(2, "spine01"), pin(3, "leaf01", {19, 20})};
  CHECK(assign_shards(fabric, targets, 4, delegation, AssignMode::even) ==
        assign_shards(fabric, targets, 4, {}, AssignMode::even));
}
