// SPDX-License-Identifier: MIT
// Node sets for traffic locality. In a tree every subtree is one: each switch's down-set (the
// hosts below it), with identical down-sets merged (the spines of a pod share one). A set holds
// its hosts and every switch whose own down-set lies inside it, so its border is exactly the
// cables that leave the subtree. Operators add sets of their own (hostlists, GUIDs, Slurm
// topology.conf); a set of hosts gets the switches that serve only those hosts.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "fabric/fabric.hpp"
#include "levels/fabric_levels.hpp"
#include "locality/down_sets.hpp"

namespace ibpm::locality {

struct NodeSet {
  std::string name;                  // "leaf01", "pod of spine01 spine02", or the operator's name
  bool subtree = false;              // from the topology (not defined by the operator)
  int level = levels::kNoLevel;      // subtree: the level of its root switches
  std::vector<std::size_t> roots;    // subtree: the switches whose down-set this is
  std::vector<std::size_t> hosts;    // node indices of the host CAs, fabric order
  std::vector<std::size_t> members;  // hosts and the switches inside, fabric order
};

// Every switch's down-set, merged where equal, ordered from the top level down, then by name.
std::vector<NodeSet> subtree_sets(const Fabric& fabric, const DownSets& down,
                                  const NodeNameMap* names);

// Completes an operator's set of hosts with the switches that serve only those hosts.
void add_inner_switches(NodeSet& set, const Fabric& fabric, const DownSets& down);

}  // namespace ibpm::locality
