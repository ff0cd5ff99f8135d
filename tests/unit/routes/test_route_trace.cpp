// SPDX-License-Identifier: MIT
// Routes traced through forwarding tables: a delivered route crosses the cables a fat tree's
// up/down route must (host -> leaf -> ... -> leaf -> host, no cable twice), and every way a
// route can break is named: no entry, a port without cable, a loop, a switch without table.
#include <catch2/catch.hpp>
#include <set>

#include "routes/route_map.hpp"
#include "routing_fixture.hpp"

using namespace ibpm;
using namespace ibpm::routes;
using namespace ibpm::routes::test;

namespace {

unsigned lid_of(const Node& host) { return *host.port(1)->lid; }

}  // namespace

TEST_CASE("a route between hosts on different leaves goes up and down through the tree") {
  const Fabric fabric = fat_tree_fabric(36, 12, 2);  // 6 leaves, 3 spines (2 links per pair)
  const ForwardingTables tables = min_hop_tables(fabric);
  const RouteMap map(fabric, tables);
  REQUIRE(map.endpoints().size() == 36);

  const Node& a = node_named(fabric, "cn0001");
  const Node& b = node_named(fabric, "cn0036");
  const Route route = map.trace({a.guid, 1}, lid_of(b));
  CHECK(route.end == RouteEnd::delivered);
  CHECK(route.stopped_at == b.guid);
  REQUIRE(route.hops.size() == 4);  // host-leaf, leaf-spine, spine-leaf, leaf-host
  CHECK(route.hops.front().from == PortRef{a.guid, 1});
  CHECK(route.hops.back().to == PortRef{b.guid, 1});
  for (std::size_t i = 0; i + 1 < route.hops.size(); ++i)
    CHECK(route.hops[i].to.node ==
          route.hops[i + 1].from.node);  // each hop leaves where the last arrived
  // Every hop is a cable of the fabric.
  for (const Hop& hop : route.hops) CHECK(fabric.remote(hop.from) == hop.to);
}

TEST_CASE("hosts on the same leaf talk through the leaf alone") {
  const Fabric fabric = fat_tree_fabric(36, 12, 2);
  const ForwardingTables tables = min_hop_tables(fabric);
  const RouteMap map(fabric, tables);
  const Node& a = node_named(fabric, "cn0001");
  const Node& b = node_named(fabric, "cn0002");
  const Route route = map.trace({a.guid, 1}, lid_of(b));
  CHECK(route.end == RouteEnd::delivered);
  CHECK(route.hops.size() == 2);
}

TEST_CASE("a three-level tree routes every pair, each through at most six cables") {
  const Fabric fabric = fat_tree_fabric(54, 6, 3);
  const ForwardingTables tables = min_hop_tables(fabric);
  const RouteMap map(fabric, tables);
  REQUIRE(map.endpoints().size() == 54);
  for (const Endpoint& s : map.endpoints())
    for (const Endpoint& d : map.endpoints()) {
      if (s.port == d.port) continue;
      const Route route = map.trace(s.port, d.lid);
      REQUIRE(route.end == RouteEnd::delivered);
      CHECK(route.hops.size() <= 6);
      CHECK(route.hops.back().to == d.port);
    }
}

TEST_CASE("broken routes say where and why they stop") {
  const Fabric fabric = fat_tree_fabric(36, 12, 2);
  ForwardingTables tables = min_hop_tables(fabric);
  const Node& a = node_named(fabric, "cn0001");
  const Node& b = node_named(fabric, "cn0036");
  const Node& leaf = node_named(fabric, "leaf01");
  const unsigned dlid = lid_of(b);

  SECTION("no entry for the LID") {
    tables.switches[leaf.guid].ports[dlid] = kNoRoute;
    const Route route = RouteMap(fabric, tables).trace({a.guid, 1}, dlid);
    CHECK(route.end == RouteEnd::no_route);
    CHECK(route.stopped_at == leaf.guid);
  }
  SECTION("a LID beyond the table's top") {
    tables.switches[leaf.guid].ports.resize(dlid);
    CHECK(RouteMap(fabric, tables).trace({a.guid, 1}, dlid).end == RouteEnd::no_route);
  }
  SECTION("an egress port without cable") {
    tables.switches[leaf.guid].ports[dlid] = 13;  // radix 12: port 13 does not exist
    const Route route = RouteMap(fabric, tables).trace({a.guid, 1}, dlid);
    CHECK(route.end == RouteEnd::dead_end);
  }
  SECTION("a loop between a leaf and a spine") {
    const PortNumber up = tables.switches[leaf.guid].ports[dlid];
    const PortRef spine_port = *fabric.remote({leaf.guid, up});
    tables.switches[spine_port.node].ports[dlid] = spine_port.port;  // straight back down
    const Route route = RouteMap(fabric, tables).trace({a.guid, 1}, dlid);
    CHECK(route.end == RouteEnd::loop);
    CHECK(route.hops.size() == 3);
  }
  SECTION("a switch whose table was not read") {
    tables.switches.erase(leaf.guid);
    CHECK(RouteMap(fabric, tables).trace({a.guid, 1}, dlid).end == RouteEnd::no_table);
  }
  SECTION("a LID nobody owns reaches a host that is not it") {
    const Node& c = node_named(fabric, "cn0002");
    tables.switches[leaf.guid].ports[dlid] = fabric.remote({c.guid, 1})->port;
    CHECK(RouteMap(fabric, tables).trace({a.guid, 1}, dlid).end == RouteEnd::wrong_node);
  }
}
