// SPDX-License-Identifier: MIT
// Host pairs per cable direction, against the plain way: trace every pair and note each cable
// it leaves through. On a two-level and a three-level tree, for every direction at once
// (pair_counts) and for a leaf uplink, a spine downlink, a core link and a host cable one by
// one (pairs_through); and with a route broken by a loop.
#include <catch2/catch.hpp>
#include <map>
#include <set>

#include "routes/cable_pairs.hpp"
#include "routing_fixture.hpp"

using namespace ibpm;
using namespace ibpm::routes;
using namespace ibpm::routes::test;

namespace {

// Every direction's pairs, by tracing every pair.
std::map<PortRef, std::set<EndpointPair>> traced_pairs(const RouteMap& map) {
  std::map<PortRef, std::set<EndpointPair>> pairs;
  const auto& endpoints = map.endpoints();
  for (std::size_t s = 0; s < endpoints.size(); ++s)
    for (std::size_t d = 0; d < endpoints.size(); ++d) {
      if (s == d) continue;
      for (const Hop& hop : map.trace(endpoints[s].port, endpoints[d].lid).hops)
        pairs[hop.from].insert({s, d});
    }
  return pairs;
}

void check_against_traces(const Fabric& fabric, const ForwardingTables& tables) {
  const RouteMap map(fabric, tables);
  const auto traced = traced_pairs(map);
  const auto counts = pair_counts(map);
  REQUIRE(counts.size() == traced.size());
  for (const auto& [from, pairs] : traced) {
    INFO(port_name(fabric, from, nullptr));
    REQUIRE(counts.count(from) == 1);
    CHECK(counts.at(from) == pairs.size());
  }
  // Each switch port of the fabric one by one, and a host's port.
  for (const Node& node : fabric.nodes()) {
    if (node.type != NodeType::sw && node.description != "cn0001") continue;
    for (const Port& port : node.ports) {
      if (!port.present || !fabric.remote({node.guid, port.number})) continue;
      const PortRef from{node.guid, port.number};
      INFO(port_name(fabric, from, nullptr));
      const auto through = pairs_through(map, from);
      const std::set<EndpointPair> got(through.begin(), through.end());
      CHECK(got.size() == through.size());  // no pair twice
      const auto it = traced.find(from);
      CHECK(got == (it == traced.end() ? std::set<EndpointPair>{} : it->second));
    }
  }
}

}  // namespace

TEST_CASE("pairs per cable direction equal those of tracing every pair, two levels") {
  const Fabric fabric = fat_tree_fabric(36, 12, 2);
  check_against_traces(fabric, min_hop_tables(fabric));
}

TEST_CASE("pairs per cable direction equal those of tracing every pair, three levels") {
  const Fabric fabric = fat_tree_fabric(54, 6, 3);
  check_against_traces(fabric, min_hop_tables(fabric));
}

TEST_CASE("pairs whose route loops count on the cables before the loop closes") {
  const Fabric fabric = fat_tree_fabric(36, 12, 2);
  ForwardingTables tables = min_hop_tables(fabric);
  const Node& leaf = node_named(fabric, "leaf01");
  const unsigned dlid = *node_named(fabric, "cn0036").port(1)->lid;
  const PortNumber up = tables.switches[leaf.guid].ports[dlid];
  const PortRef spine_port = *fabric.remote({leaf.guid, up});
  tables.switches[spine_port.node].ports[dlid] = spine_port.port;
  check_against_traces(fabric, tables);
}

TEST_CASE(
    "a leaf's uplinks share the pairs leaving the leaf, a host cable carries all of its host's") {
  const Fabric fabric = fat_tree_fabric(36, 12, 2);  // 6 hosts and 6 uplinks per leaf
  const ForwardingTables tables = min_hop_tables(fabric);
  const RouteMap map(fabric, tables);
  const auto counts = pair_counts(map);
  const Node& leaf = node_named(fabric, "leaf01");
  std::size_t up_total = 0;
  for (PortNumber p = 7; p <= 12; ++p) up_total += counts.at({leaf.guid, p});
  CHECK(up_total == 6 * 30);  // each of its 6 hosts to each of the 30 hosts elsewhere
  const Node& host = node_named(fabric, "cn0001");
  CHECK(counts.at({host.guid, 1}) == 35);
  CHECK(counts.at(*fabric.remote({host.guid, 1})) == 35);  // and back: every host to it
}
