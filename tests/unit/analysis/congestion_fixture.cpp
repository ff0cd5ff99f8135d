// SPDX-License-Identifier: MIT

#include "congestion_fixture.hpp"

#include <catch2/catch.hpp>

#include "../routes/routing_fixture.hpp"

namespace ibpm::analysis::test {

RoutedTree::RoutedTree()
    : fabric_(routes::test::fat_tree_fabric(8, 4, 2)),
      tables_(routes::test::min_hop_tables(fabric_)),
      map_(fabric_, tables_) {}

PortRef RoutedTree::host(const std::string& name) const {
  return {routes::test::node_named(fabric_, name).guid, 1};
}

PortRef RoutedTree::port(const std::string& node, PortNumber number) const {
  return {routes::test::node_named(fabric_, node).guid, number};
}

PortRef RoutedTree::egress_toward(const std::string& node, const std::string& host_name) const {
  const Node& sw = routes::test::node_named(fabric_, node);
  const unsigned lid = *fabric_.find_port(host(host_name))->lid;
  const routes::RouteMap::Step step = map_.step(fabric_.index_of(sw.guid), lid);
  REQUIRE(step.forwards);
  return {sw.guid, step.egress};
}

std::string RoutedTree::peer_node(const PortRef& port) const {
  return fabric_.node(fabric_.remote(port)->node).description;
}

std::string RoutedTree::name(const PortRef& port) const {
  return fabric_.node(port.node).description + "[" + std::to_string(port.port) + "]";
}

}  // namespace ibpm::analysis::test
