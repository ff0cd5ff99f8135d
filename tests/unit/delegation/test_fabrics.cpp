// SPDX-License-Identifier: MIT

#include "test_fabrics.hpp"

#include <algorithm>

#include "sim/net_fabric.hpp"

namespace ibpm::delegation::test {

const sim::FatTree& full_fat_tree() {
  static const sim::FatTree tree = [] {
    sim::FatTreeOptions options;
    options.hosts = 648;
    options.radix = 36;
    return sim::make_fat_tree(options);
  }();
  return tree;
}

// Switches are every node not named like a host: the fat trees' hosts are cn0001, cn0002, ...
Guid guid_of(std::string_view name) {
  return sim::net_node_guid(name, name.starts_with("cn") ? NodeType::ca : NodeType::sw);
}

Fabric fabric_of(const sim::NetTopology& topology, const BuildOptions& options) {
  return sim::net_fabric(topology, {options.without, options.shuffle_seed});
}

std::vector<poll::PortTarget> all_targets(const Fabric& fabric) {
  std::vector<poll::PortTarget> targets;
  for (const Node& node : fabric.nodes())
    for (poll::PortTarget& t : poll::connected_port_targets(fabric, nullptr, node))
      targets.push_back(std::move(t));
  return targets;
}

std::map<PortRef, unsigned> shard_by_port(const std::vector<poll::PortTarget>& targets,
                                          const std::vector<unsigned>& assignment) {
  std::map<PortRef, unsigned> shards;
  for (std::size_t i = 0; i < targets.size(); ++i)
    shards[PortRef{targets[i].node, targets[i].port}] = assignment.at(i);
  return shards;
}

double moved_fraction(const std::map<PortRef, unsigned>& before,
                      const std::map<PortRef, unsigned>& after) {
  std::size_t common = 0, moved = 0;
  for (const auto& [port, shard] : before) {
    auto it = after.find(port);
    if (it == after.end()) continue;
    ++common;
    moved += it->second != shard;
  }
  return common == 0 ? 0.0 : static_cast<double>(moved) / static_cast<double>(common);
}

std::vector<unsigned> round_robin_by_guid(const std::vector<poll::PortTarget>& targets,
                                          unsigned count) {
  std::vector<Guid> nodes;
  for (const poll::PortTarget& t : targets) nodes.push_back(t.node);
  std::sort(nodes.begin(), nodes.end());
  nodes.erase(std::unique(nodes.begin(), nodes.end()), nodes.end());
  std::vector<unsigned> assignment;
  for (const poll::PortTarget& t : targets) {
    const auto position = std::lower_bound(nodes.begin(), nodes.end(), t.node) - nodes.begin();
    assignment.push_back(static_cast<unsigned>(position) % count + 1);
  }
  return assignment;
}

}  // namespace ibpm::delegation::test
