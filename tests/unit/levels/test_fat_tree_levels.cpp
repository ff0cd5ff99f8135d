// SPDX-License-Identifier: MIT
// Levels of generated fat trees: two and three levels, partial last leaves, oversubscription.
#include <catch2/catch.hpp>

#include "../delegation/test_fabrics.hpp"
#include "fabric/graph.hpp"
#include "levels/fabric_levels.hpp"
#include "sim/fat_tree.hpp"

using namespace ibpm;

namespace {

void check_levels(const sim::FatTree& tree) {
  Fabric fabric = delegation::test::fabric_of(tree.topology);
  levels::FabricLevels levels(fabric, make_graph(fabric));
  REQUIRE(levels.top() == static_cast<int>(tree.switches.size()));
  for (std::size_t level = 0; level < tree.switches.size(); ++level)
    for (const auto& name : tree.switches[level]) {
      INFO(name);
      CHECK(levels.level(fabric.index_of(delegation::test::guid_of(name))) ==
            static_cast<int>(level) + 1);
    }
  for (const auto& host : tree.hosts)
    CHECK(levels.level(fabric.index_of(delegation::test::guid_of(host))) == levels::kHostLevel);
}

}  // namespace

TEST_CASE("levels of generated fat trees") {
  SECTION("two levels, full") { check_levels(sim::make_fat_tree({.hosts = 648, .radix = 36})); }
  SECTION("two levels, partial last leaf") {
    check_levels(sim::make_fat_tree({.hosts = 100, .radix = 24}));
  }
  SECTION("three levels") {
    check_levels(sim::make_fat_tree({.hosts = 400, .radix = 12, .levels = 3}));
  }
  SECTION("oversubscribed 2:1") {
    check_levels(sim::make_fat_tree(
        {.hosts = 96, .radix = 12, .oversubscription_down = 2, .oversubscription_up = 1}));
  }
}

TEST_CASE("a leaf whose hosts are all gone is still a leaf") {
  // ibnetdiscover does not see powered-off hosts: take every host of the first leaf away.
  auto tree = sim::make_fat_tree({.hosts = 216, .radix = 12, .levels = 3});
  delegation::test::BuildOptions without;
  for (const auto& host : tree.leaf_hosts[0]) without.without.insert(host);
  Fabric fabric = delegation::test::fabric_of(tree.topology, without);
  levels::FabricLevels levels(fabric, make_graph(fabric));
  CHECK(levels.level(fabric.index_of(delegation::test::guid_of(tree.leaves()[0]))) ==
        levels::kLeafLevel);
  CHECK(levels.switches_at(3).size() == tree.switches[2].size());
}

TEST_CASE("level names") {
  auto tree = sim::make_fat_tree({.hosts = 72, .radix = 12});
  Fabric fabric = delegation::test::fabric_of(tree.topology);
  levels::FabricLevels levels(fabric, make_graph(fabric));
  CHECK(levels.name(0) == "hosts");
  CHECK(levels.name(1) == "leaf");
  CHECK(levels.name(2) == "spine");
  CHECK(levels.name(3) == "core");
  CHECK(levels.name(4) == "level 4");
}
