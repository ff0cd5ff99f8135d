// SPDX-License-Identifier: MIT

#include "locality/down_sets.hpp"

#include <algorithm>

namespace ibpm::locality {

DownSets::DownSets(const Fabric& fabric, const levels::FabricLevels& levels) : levels_(levels) {
  const auto& nodes = fabric.nodes();
  bit_.assign(nodes.size(), -1);
  for (std::size_t i = 0; i < nodes.size(); ++i)
    if (levels::is_host(nodes[i])) {
      bit_[i] = static_cast<std::ptrdiff_t>(hosts_.size());
      hosts_.push_back(i);
    }
  sets_.assign(nodes.size(), boost::dynamic_bitset<>(hosts_.size()));

  // Switches in ascending level, so every lower neighbour is complete when it is read.
  std::vector<std::size_t> order;
  for (std::size_t i = 0; i < nodes.size(); ++i)
    if (nodes[i].type == NodeType::sw && levels.level(i) >= levels::kLeafLevel) order.push_back(i);
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return levels.level(a) < levels.level(b); });
  for (std::size_t s : order) {
    const Node& node = nodes[s];
    node.for_each_port([&](const Port& port) {
      auto peer = fabric.remote({node.guid, port.number});
      if (!peer) return;
      std::size_t n = fabric.index_of(peer->node);
      if (bit_[n] >= 0)
        sets_[s].set(static_cast<std::size_t>(bit_[n]));
      else if (nodes[n].type == NodeType::sw && levels.level(n) >= levels::kLeafLevel &&
               levels.level(n) < levels.level(s))
        sets_[s] |= sets_[n];
    });
  }
}

boost::dynamic_bitset<> DownSets::bits_of(const std::vector<std::size_t>& host_nodes) const {
  boost::dynamic_bitset<> bits(hosts_.size());
  for (std::size_t n : host_nodes)
    if (n < bit_.size() && bit_[n] >= 0) bits.set(static_cast<std::size_t>(bit_[n]));
  return bits;
}

}  // namespace ibpm::locality
