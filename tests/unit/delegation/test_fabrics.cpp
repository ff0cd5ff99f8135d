#include "test_fabrics.hpp"

#include <algorithm>
#include <random>

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

Guid guid_of(std::string_view name) {
  std::uint64_t hash = 0xcbf29ce484222325ULL;  // FNV-1a
  for (char c : name) hash = (hash ^ static_cast<unsigned char>(c)) * 0x100000001b3ULL;
  const bool is_switch = !name.starts_with("cn");
  const Guid vendor = is_switch ? 0x7cfe90 : 0x0002c9;
  return vendor << 40 | (hash & 0xffffffffffULL);
}

Fabric fabric_of(const sim::NetTopology& topology, const BuildOptions& options) {
  std::vector<std::size_t> node_order(topology.nodes().size());
  for (std::size_t i = 0; i < node_order.size(); ++i) node_order[i] = i;
  std::vector<sim::NetLink> links = topology.links();
  if (options.shuffle_seed) {
    std::mt19937 random(*options.shuffle_seed);
    std::shuffle(node_order.begin(), node_order.end(), random);
    std::shuffle(links.begin(), links.end(), random);
  }
  auto kept = [&](std::size_t i) { return !options.without.contains(topology.node(i).name); };
  Fabric fabric;
  for (std::size_t i : node_order) {
    if (!kept(i)) continue;
    const sim::NetNode& n = topology.node(i);
    const Guid guid = guid_of(n.name);
    fabric.add_node(guid, n.type, n.name, n.port_count);
    const PortNumber lid_port = n.type == NodeType::sw ? 0 : 1;
    fabric.port({guid, lid_port}).lid = static_cast<Lid>(i + 1);
  }
  for (const sim::NetLink& link : links)
    if (kept(link.a.node) && kept(link.b.node))
      fabric.connect(
          {guid_of(topology.node(link.a.node).name), static_cast<PortNumber>(link.a.port)},
          {guid_of(topology.node(link.b.node).name), static_cast<PortNumber>(link.b.port)});
  return fabric;
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
