// SPDX-License-Identifier: MIT

#include "delegation/split_nodes.hpp"

#include <algorithm>
#include <set>

namespace ibpm::delegation {

SplitNodes split_nodes(const std::vector<poll::PortTarget>& targets,
                       const std::vector<unsigned>& assignment) {
  SplitNodes nodes;
  for (std::size_t i = 0; i < targets.size() && i < assignment.size(); ++i)
    nodes[targets[i].node].push_back({targets[i].port, assignment[i]});
  std::erase_if(nodes, [](const auto& node) {
    const std::vector<PortShard>& ports = node.second;
    return std::all_of(ports.begin(), ports.end(),
                       [&](const PortShard& p) { return p.shard == ports.front().shard; });
  });
  for (auto& [node, ports] : nodes)
    std::sort(ports.begin(), ports.end(),
              [](const PortShard& a, const PortShard& b) { return a.port < b.port; });
  return nodes;
}

unsigned owning_shard(const std::vector<PortShard>& ports) {
  std::map<unsigned, std::size_t> counts;  // ascending shard: the first maximum is the lowest
  for (const PortShard& p : ports) ++counts[p.shard];
  unsigned owner = 0;
  std::size_t most = 0;
  for (const auto& [shard, count] : counts)
    if (count > most) {
      owner = shard;
      most = count;
    }
  return owner;
}

std::string ports_elsewhere(const std::vector<PortShard>& ports, unsigned shard) {
  std::map<unsigned, std::vector<PortNumber>> by_shard;
  for (const PortShard& p : ports)
    if (p.shard != shard) by_shard[p.shard].push_back(p.port);
  std::string text;
  for (auto& [other, numbers] : by_shard) {
    std::sort(numbers.begin(), numbers.end());
    text += (text.empty() ? "" : ", ") + format_port_list(numbers) + " read by shard " +
            std::to_string(other);
  }
  return text;
}

std::string format_port_list(const std::vector<PortNumber>& ports) {
  std::string text;
  for (std::size_t i = 0; i < ports.size();) {
    std::size_t last = i;
    while (last + 1 < ports.size() && ports[last + 1] == ports[last] + 1) ++last;
    text += (text.empty() ? "" : ",") + std::to_string(ports[i]);
    if (last > i) text += "-" + std::to_string(ports[last]);
    i = last + 1;
  }
  return text;
}

}  // namespace ibpm::delegation
