// SPDX-License-Identifier: MIT
// A Boost.Graph view of a Fabric for graph algorithms (BFS, levels, components).
// Vertices are positions in Fabric::nodes(), edges carry their index in Fabric::links(),
// so parallel links and self-loops stay visible as they are in the fabric.
#pragma once

#include <boost/graph/adjacency_list.hpp>

#include "fabric/fabric.hpp"

namespace ibpm {

struct LinkEdge {
  std::size_t link = 0;  // index into Fabric::links()
};

using FabricGraph = boost::adjacency_list<boost::vecS, boost::vecS, boost::undirectedS,
                                          boost::no_property, LinkEdge>;

FabricGraph make_graph(const Fabric& fabric);

// Hop distance from the node at index `from` to every node (-1 where unreachable).
std::vector<int> hop_distances(const FabricGraph& graph, std::size_t from);

}  // namespace ibpm
