// SPDX-License-Identifier: MIT

#include "delegation/nearest_collector.hpp"

#include <stdexcept>

#include "fabric/graph.hpp"

namespace ibpm::delegation {

std::vector<std::vector<unsigned>> nearest_collector_shards(
    const Fabric& fabric, const std::map<unsigned, Guid>& collectors) {
  const FabricGraph graph = make_graph(fabric);
  const std::size_t node_count = fabric.nodes().size();
  std::vector<int> best(node_count, -1);
  std::vector<std::vector<unsigned>> nearest(node_count);
  for (const auto& [shard, collector] : collectors) {  // ascending shard order
    if (!fabric.find(collector))
      throw std::invalid_argument("the collector of shard " + std::to_string(shard) + ", " +
                                  format_guid(collector) + ", is not in the topology");
    const std::vector<int> hops = hop_distances(graph, fabric.index_of(collector));
    for (std::size_t n = 0; n < node_count; ++n) {
      if (hops[n] < 0 || (best[n] >= 0 && hops[n] > best[n])) continue;
      if (best[n] < 0 || hops[n] < best[n]) nearest[n].clear();
      best[n] = hops[n];
      nearest[n].push_back(shard);
    }
  }
  return nearest;
}

}  // namespace ibpm::delegation
