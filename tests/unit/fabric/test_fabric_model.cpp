// SPDX-License-Identifier: MIT

#include <catch2/catch.hpp>

#include "fabric/fabric.hpp"
#include "fabric/node_name_map.hpp"

using namespace ibpm;

namespace {
constexpr Guid kLeaf = 0x100, kSpine = 0x200, kHost = 0x300;

Fabric two_switches_and_a_host() {
  Fabric f;
  f.add_node(kLeaf, NodeType::sw, "leaf01", 36);
  f.add_node(kSpine, NodeType::sw, "spine01", 36);
  f.add_node(kHost, NodeType::ca, "cn0001 HCA-1", 1);
  return f;
}
}  // namespace

TEST_CASE("a cable seen from both ends is one link") {
  Fabric f = two_switches_and_a_host();
  CHECK(f.connect({kLeaf, 1}, {kHost, 1}) == ConnectResult::added);
  CHECK(f.connect({kHost, 1}, {kLeaf, 1}) == ConnectResult::already_known);
  CHECK(f.links().size() == 1);
  CHECK(f.remote({kHost, 1}) == PortRef{kLeaf, 1});
  CHECK(f.remote({kLeaf, 1}) == PortRef{kHost, 1});
  CHECK_FALSE(f.remote({kLeaf, 2}));
}

TEST_CASE("parallel links and self-loop cables are kept as separate links") {
  Fabric f = two_switches_and_a_host();
  CHECK(f.connect({kLeaf, 19}, {kSpine, 1}) == ConnectResult::added);
  CHECK(f.connect({kLeaf, 20}, {kSpine, 2}) == ConnectResult::added);
  CHECK(f.connect({kLeaf, 25}, {kLeaf, 26}) == ConnectResult::added);
  CHECK(f.connect({kLeaf, 26}, {kLeaf, 25}) == ConnectResult::already_known);
  CHECK(f.links().size() == 3);
  CHECK(f.remote({kLeaf, 26}) == PortRef{kLeaf, 25});
}

TEST_CASE("a port cabled elsewhere is a conflict and changes nothing") {
  Fabric f = two_switches_and_a_host();
  REQUIRE(f.connect({kLeaf, 1}, {kHost, 1}) == ConnectResult::added);
  CHECK(f.connect({kSpine, 5}, {kHost, 1}) == ConnectResult::conflict);
  CHECK(f.connect({kLeaf, 3}, {kLeaf, 3}) == ConnectResult::conflict);
  CHECK(f.links().size() == 1);
  CHECK(f.remote({kHost, 1}) == PortRef{kLeaf, 1});
}

TEST_CASE("nodes are keyed by GUID / not by description") {
  Fabric f;
  f.add_node(1, NodeType::ca, "same name", 1);
  f.add_node(2, NodeType::ca, "same name", 1);
  Node& again = f.add_node(1, NodeType::ca, "other name", 2);
  CHECK(f.nodes().size() == 2);
  CHECK(again.description == "same name");
  CHECK(again.port_count == 2);  // a later record may know more ports
  CHECK(f.count(NodeType::ca) == 2);
  CHECK(f.index_of(2) == 1);
  CHECK_THROWS_AS(f.node(3), std::out_of_range);
}

TEST_CASE("a port beyond the header's count grows the node instead of failing") {
  Fabric f;
  f.add_node(1, NodeType::sw, "sw", 8);
  f.port({1, 12}).width = LinkWidth::x4;
  const Node& n = f.node(1);
  CHECK(n.port_count == 12);
  REQUIRE(n.port(12));
  CHECK(n.port(12)->number == 12);
  CHECK_FALSE(n.port(11));  // nothing known about it
}

TEST_CASE("names come from the node-name-map first / then the description") {
  Fabric f = two_switches_and_a_host();
  NodeNameMap names;
  names.set(kLeaf, "ib-leaf-a1");
  CHECK(display_name(f.node(kLeaf), &names) == "ib-leaf-a1");
  CHECK(display_name(f.node(kSpine), &names) == "spine01");
  CHECK(port_name(f, {kLeaf, 7}, &names) == "ib-leaf-a1[7]");
  CHECK(port_name(f, {0x999, 1}, nullptr) == "0x0000000000000999[1]");
}

TEST_CASE("a self-loop to a port beyond the table is cabled at both ends") {
  Fabric f;
  f.add_node(1, NodeType::sw, "sw", 2);
  CHECK(f.connect({1, 1}, {1, 200}) == ConnectResult::added);
  CHECK(f.remote({1, 1}) == PortRef{1, 200});
  CHECK(f.remote({1, 200}) == PortRef{1, 1});
}

TEST_CASE("a node re-added with more ports numbers the new ones") {
  Fabric f;
  f.add_node(1, NodeType::sw, "sw", 2);
  const Node& n = f.add_node(1, NodeType::sw, "sw", 6);
  REQUIRE(n.ports.size() == 7);
  for (std::size_t i = 0; i < n.ports.size(); ++i) CHECK(n.ports[i].number == i);
}
