// SPDX-License-Identifier: MIT

#include "levels/fabric_levels.hpp"

#include <algorithm>
#include <deque>
#include <map>
#include <unordered_map>

namespace ibpm::levels {

bool is_aggregation_node(const Node& node) {
  return node.type == NodeType::ca &&
         node.description.find("Aggregation Node") != std::string::npos;
}

bool is_host(const Node& node) { return node.type == NodeType::ca && !is_aggregation_node(node); }

namespace {

struct SwitchLinks {
  int host_links = 0;
  std::vector<std::size_t> switch_neighbours;  // one entry per cable (parallel cables repeat)
};

std::vector<SwitchLinks> count_links(const Fabric& fabric, const FabricGraph& graph) {
  const auto& nodes = fabric.nodes();
  std::vector<SwitchLinks> links(nodes.size());
  for (auto [e, end] = boost::edges(graph); e != end; ++e) {
    std::size_t a = boost::source(*e, graph), b = boost::target(*e, graph);
    if (a == b) continue;  // a loop-back cable says nothing about the level
    for (auto [self, other] : {std::pair{a, b}, std::pair{b, a}}) {
      if (nodes[self].type != NodeType::sw) continue;
      if (nodes[other].type == NodeType::sw)
        links[self].switch_neighbours.push_back(other);
      else if (is_host(nodes[other]))
        ++links[self].host_links;
    }
  }
  return links;
}

// Leaves: switches with hosts, less the spines that carry hosts. A switch with hosts that is
// cabled to other switches with hosts is in conflict; the one whose switch neighbours are most
// often such switches (ties: the one with the fewest hosts per switch cable) is a spine. One at a
// time, because each decision resolves the conflicts of its neighbours. A switch with at least
// as many hosts as switch cables stays a leaf: two interconnected host switches are both leaves.
std::vector<bool> find_leaves(const Fabric& fabric, const std::vector<SwitchLinks>& links,
                              std::vector<std::size_t>& spines_with_hosts) {
  const auto& nodes = fabric.nodes();
  std::vector<bool> leaf(nodes.size(), false);
  for (std::size_t i = 0; i < nodes.size(); ++i)
    leaf[i] = nodes[i].type == NodeType::sw && links[i].host_links > 0;

  for (;;) {
    std::size_t demote = nodes.size();
    double worst_share = -1, worst_ratio = 0;
    for (std::size_t i = 0; i < nodes.size(); ++i) {
      if (!leaf[i]) continue;
      const auto& n = links[i].switch_neighbours;
      if (n.empty() || links[i].host_links >= static_cast<int>(n.size())) continue;
      auto with_hosts = std::count_if(n.begin(), n.end(), [&](std::size_t j) { return leaf[j]; });
      if (with_hosts == 0) continue;
      double share = static_cast<double>(with_hosts) / n.size();
      double ratio = static_cast<double>(links[i].host_links) / n.size();
      if (share > worst_share || (share == worst_share && ratio < worst_ratio)) {
        demote = i;
        worst_share = share;
        worst_ratio = ratio;
      }
    }
    if (demote == nodes.size()) break;
    leaf[demote] = false;
    spines_with_hosts.push_back(demote);
  }
  std::sort(spines_with_hosts.begin(), spines_with_hosts.end());
  return leaf;
}

// Leaves without hosts (an empty rack, a storage leaf not yet cabled): a switch with neither hosts
// nor leaf neighbours that hangs off one switch, or only off directors' line cards, or is cabled
// mostly to the same switches as some leaf, is a leaf too. A
// core shares at most one spine per pod with any leaf, a director's fabric ASIC at most the line
// cards one leaf reaches, so "more than half of its neighbours" keeps them apart.
void add_empty_leaves(const Fabric& fabric, const std::vector<SwitchLinks>& links,
                      std::vector<bool>& leaf) {
  const auto& nodes = fabric.nodes();
  auto distinct = [&](std::size_t i) {
    auto n = links[i].switch_neighbours;
    std::sort(n.begin(), n.end());
    n.erase(std::unique(n.begin(), n.end()), n.end());
    return n;
  };
  std::unordered_map<Guid, int> asics_per_image;
  for (const Node& n : nodes)
    if (n.type == NodeType::sw && n.system_image_guid != 0) ++asics_per_image[n.system_image_guid];
  auto in_chassis = [&](std::size_t i) {
    return nodes[i].system_image_guid != 0 && asics_per_image[nodes[i].system_image_guid] > 1;
  };
  std::vector<std::size_t> found;
  for (std::size_t s = 0; s < nodes.size(); ++s) {
    if (nodes[s].type != NodeType::sw || leaf[s] || links[s].host_links > 0) continue;
    auto neighbours = distinct(s);
    if (neighbours.empty()) continue;
    if (std::any_of(neighbours.begin(), neighbours.end(), [&](std::size_t n) { return leaf[n]; }))
      continue;
    // Hanging off a single switch, or cabled only to the line cards of directors it is not part
    // of (a director's fabric ASICs only reach its own line cards), it is an edge of the fabric.
    auto line_card = [&](std::size_t n) {
      return in_chassis(n) && nodes[n].system_image_guid != nodes[s].system_image_guid;
    };
    if (neighbours.size() == 1 || std::all_of(neighbours.begin(), neighbours.end(), line_card)) {
      found.push_back(s);
      continue;
    }
    // Neighbours shared with each leaf two hops away.
    std::unordered_map<std::size_t, std::size_t> shared;
    std::size_t best = 0;
    for (std::size_t n : neighbours)
      for (std::size_t l : distinct(n))
        if (leaf[l]) best = std::max(best, ++shared[l]);
    if (2 * best > neighbours.size()) found.push_back(s);
  }
  for (std::size_t s : found) leaf[s] = true;
}

}  // namespace

FabricLevels::FabricLevels(const Fabric& fabric, const FabricGraph& graph) {
  const auto& nodes = fabric.nodes();
  level_.assign(nodes.size(), kNoLevel);
  auto links = count_links(fabric, graph);
  auto leaf = find_leaves(fabric, links, spines_with_hosts_);
  add_empty_leaves(fabric, links, leaf);

  // Switch levels: breadth-first over switch-to-switch cables from all leaves at once.
  std::deque<std::size_t> queue;
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    if (nodes[i].type != NodeType::sw) {
      level_[i] = kHostLevel;
    } else if (leaf[i]) {
      level_[i] = kLeafLevel;
      queue.push_back(i);
    }
  }
  while (!queue.empty()) {
    std::size_t s = queue.front();
    queue.pop_front();
    top_ = std::max(top_, level_[s]);
    for (std::size_t n : links[s].switch_neighbours) {
      if (level_[n] != kNoLevel) continue;
      level_[n] = level_[s] + 1;
      queue.push_back(n);
    }
  }
}

std::vector<std::size_t> FabricLevels::switches_at(int level) const {
  std::vector<std::size_t> out;
  if (level < kLeafLevel) return out;
  for (std::size_t i = 0; i < level_.size(); ++i)
    if (level_[i] == level) out.push_back(i);
  return out;
}

std::string FabricLevels::name(int level) const {
  switch (level) {
    case kNoLevel:
      return "unplaced";
    case kHostLevel:
      return "hosts";
    case kLeafLevel:
      return "leaf";
    case 2:
      return "spine";
    case 3:
      return "core";
    default:
      return "level " + std::to_string(level);
  }
}

std::vector<Chassis> chassis(const Fabric& fabric) {
  std::map<Guid, std::vector<std::size_t>> by_image;
  const auto& nodes = fabric.nodes();
  for (std::size_t i = 0; i < nodes.size(); ++i)
    if (nodes[i].type == NodeType::sw && nodes[i].system_image_guid != 0)
      by_image[nodes[i].system_image_guid].push_back(i);
  std::vector<Chassis> out;
  for (auto& [image, switches] : by_image)
    if (switches.size() > 1) out.push_back({image, std::move(switches)});
  // Fabric order of the first ASIC, so output does not depend on GUID values.
  std::sort(out.begin(), out.end(),
            [](const Chassis& a, const Chassis& b) { return a.switches[0] < b.switches[0]; });
  return out;
}

}  // namespace ibpm::levels
