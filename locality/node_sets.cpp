// SPDX-License-Identifier: MIT

#include "locality/node_sets.hpp"

#include <algorithm>
#include <map>

#include "fabric/node_name_map.hpp"

namespace ibpm::locality {

namespace {

// Hosts of `bits` and every switch whose non-empty down-set lies inside it.
std::vector<std::size_t> members_of(const boost::dynamic_bitset<>& bits, const Fabric& fabric,
                                    const DownSets& down) {
  std::vector<std::size_t> members;
  for (std::size_t i = 0; i < fabric.nodes().size(); ++i) {
    const auto& own = down.of(i);
    if (fabric.nodes()[i].type == NodeType::sw && own.any() && own.is_subset_of(bits))
      members.push_back(i);
  }
  for (std::size_t b = bits.find_first(); b != bits.npos; b = bits.find_next(b))
    members.push_back(down.hosts()[b]);
  std::sort(members.begin(), members.end());
  return members;
}

std::string set_name(const Fabric& fabric, const levels::FabricLevels& levels,
                     std::vector<std::size_t>& roots, const NodeNameMap* names) {
  std::vector<std::string> root_names;
  for (std::size_t r : roots) root_names.push_back(display_name(fabric.nodes()[r], names));
  std::sort(root_names.begin(), root_names.end());
  if (root_names.size() == 1) return root_names[0];
  return root_names.front() + ".." + root_names.back() + " (" + std::to_string(root_names.size()) +
         " " + levels.name(levels.level(roots[0])) + "s)";
}

}  // namespace

std::vector<NodeSet> subtree_sets(const Fabric& fabric, const DownSets& down,
                                  const NodeNameMap* names) {
  const levels::FabricLevels& levels = down.levels();
  std::map<boost::dynamic_bitset<>, std::vector<std::size_t>> roots_by_set;
  for (std::size_t i = 0; i < fabric.nodes().size(); ++i)
    if (down.of(i).any()) roots_by_set[down.of(i)].push_back(i);

  std::vector<NodeSet> sets;
  for (auto& [bits, roots] : roots_by_set) {
    NodeSet set;
    set.subtree = true;
    set.roots = roots;
    for (std::size_t r : roots) set.level = std::max(set.level, levels.level(r));
    set.name = set_name(fabric, levels, set.roots, names);
    for (std::size_t b = bits.find_first(); b != bits.npos; b = bits.find_next(b))
      set.hosts.push_back(down.hosts()[b]);
    set.members = members_of(bits, fabric, down);
    sets.push_back(std::move(set));
  }
  std::sort(sets.begin(), sets.end(), [](const NodeSet& a, const NodeSet& b) {
    return a.level != b.level ? a.level > b.level : a.name < b.name;
  });
  return sets;
}

void add_inner_switches(NodeSet& set, const Fabric& fabric, const DownSets& down) {
  set.members = members_of(down.bits_of(set.hosts), fabric, down);
  std::vector<std::size_t> hosts;
  for (std::size_t m : set.members)
    if (levels::is_host(fabric.nodes()[m])) hosts.push_back(m);
  set.hosts = std::move(hosts);
}

}  // namespace ibpm::locality
