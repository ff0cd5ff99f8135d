// SPDX-License-Identifier: MIT

#include <catch2/catch.hpp>

#include "fabric/graph.hpp"

using namespace ibpm;

TEST_CASE("the graph view keeps parallel links and measures hops") {
  Fabric f;
  f.add_node(1, NodeType::sw, "spine", 4);
  f.add_node(2, NodeType::sw, "leaf", 4);
  f.add_node(3, NodeType::ca, "host", 1);
  f.add_node(4, NodeType::ca, "island", 1);
  f.connect({1, 1}, {2, 1});
  f.connect({1, 2}, {2, 2});
  f.connect({2, 3}, {3, 1});
  CHECK(f.connect({2, 4}, {2, 4}) == ConnectResult::conflict);  // one port cannot loop to itself
  FabricGraph g = make_graph(f);
  CHECK(boost::num_vertices(g) == 4);
  CHECK(boost::num_edges(g) == 3);
  CHECK(boost::out_degree(f.index_of(2), g) == 3);
  auto hops = hop_distances(g, f.index_of(1));
  CHECK(hops[f.index_of(1)] == 0);
  CHECK(hops[f.index_of(2)] == 1);
  CHECK(hops[f.index_of(3)] == 2);
  CHECK(hops[f.index_of(4)] == -1);
}
