// SPDX-License-Identifier: MIT
// Up-port balance: min-hop tables on a full fat tree spread destinations evenly (spread 0 or
// 1 everywhere); an LFT rewritten to pile one leaf's routes onto one up-port shows that leaf
// first, with the spread it has.
#include <catch2/catch.hpp>

#include "fabric/graph.hpp"
#include "routes/up_port_balance.hpp"
#include "routing_fixture.hpp"

using namespace ibpm;
using namespace ibpm::routes;
using namespace ibpm::routes::test;

TEST_CASE("a full fat tree with min-hop routes is balanced") {
  const Fabric fabric = fat_tree_fabric(54, 6, 3);
  const ForwardingTables tables = min_hop_tables(fabric);
  const RouteMap map(fabric, tables);
  const levels::FabricLevels levels(fabric, make_graph(fabric));
  const auto rows = up_port_balance(map, levels);
  // Leaves and spines have up-ports, cores none.
  CHECK(rows.size() == fabric.count(NodeType::sw) - 9);
  for (const SwitchBalance& row : rows) {
    CHECK(row.spread() <= 1);
    CHECK(row.up_ports.size() == 3);
  }
}

TEST_CASE("routes piled on one up-port make the largest spread") {
  const Fabric fabric = fat_tree_fabric(36, 12, 2);
  ForwardingTables tables = min_hop_tables(fabric);
  const Node& leaf = node_named(fabric, "leaf03");
  // Every host LID not on leaf03 out of its first up-port (7).
  std::size_t piled = 0;
  for (const Node& n : fabric.nodes()) {
    if (n.type != NodeType::ca) continue;
    if (fabric.remote({n.guid, 1})->node == leaf.guid) continue;
    tables.switches[leaf.guid].ports[*n.port(1)->lid] = 7;
    ++piled;
  }
  const RouteMap map(fabric, tables);
  const levels::FabricLevels levels(fabric, make_graph(fabric));
  const auto rows = up_port_balance(map, levels);
  REQUIRE(!rows.empty());
  CHECK(rows.front().node == leaf.guid);
  CHECK(rows.front().most == piled);
  CHECK(rows.front().fewest == 0);
  CHECK(rows.front().spread() == piled);
  CHECK(rows.at(1).spread() <= 1);
}
