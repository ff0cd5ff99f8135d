// SPDX-License-Identifier: MIT

#include "fabric/graph.hpp"

#include <boost/graph/breadth_first_search.hpp>
#include <boost/graph/visitors.hpp>

namespace ibpm {

FabricGraph make_graph(const Fabric& fabric) {
  FabricGraph graph(fabric.nodes().size());
  const auto& links = fabric.links();
  for (std::size_t i = 0; i < links.size(); ++i) {
    boost::add_edge(fabric.index_of(links[i].a.node), fabric.index_of(links[i].b.node), LinkEdge{i},
                    graph);
  }
  return graph;
}

std::vector<int> hop_distances(const FabricGraph& graph, std::size_t from) {
  std::vector<int> distance(boost::num_vertices(graph), -1);
  distance[from] = 0;
  // Record distances with a BFS visitor; unreached vertices keep -1.
  boost::breadth_first_search(graph, boost::vertex(from, graph),
                              boost::visitor(boost::make_bfs_visitor(boost::record_distances(
                                  boost::make_iterator_property_map(
                                      distance.begin(), boost::get(boost::vertex_index, graph)),
                                  boost::on_tree_edge()))));
  return distance;
}

}  // namespace ibpm
