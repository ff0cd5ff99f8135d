// SPDX-License-Identifier: MIT
// Fabrics for the delegation tests: the simulator's fat trees as Fabric models, with nodes left
// out (a switch that disappeared) or added in another order (another discovery).
#pragma once

#include <cstddef>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "delegation/delegation.hpp"
#include "fabric/fabric.hpp"
#include "poll/target.hpp"
#include "sim/fat_tree.hpp"

namespace ibpm::delegation::test {

// 648 hosts, 36 leaves, 18 spines of 36 ports: 2592 cabled ports.
const sim::FatTree& full_fat_tree();

struct BuildOptions {
  std::set<std::string> without;         // nodes left out, with their cables
  std::optional<unsigned> shuffle_seed;  // add nodes and cables in a shuffled order
};

// Node GUIDs follow from names (a vendor prefix and a hash), LIDs from positions in the
// topology, so a node keeps both in every variant of a fabric.
Fabric fabric_of(const sim::NetTopology& topology, const BuildOptions& options = {});
Guid guid_of(std::string_view name);

// Every cabled port of every node, in the fabric's node order.
std::vector<poll::PortTarget> all_targets(const Fabric& fabric);

// The shard of each (node, port) of an assignment.
std::map<PortRef, unsigned> shard_by_port(const std::vector<poll::PortTarget>& targets,
                                          const std::vector<unsigned>& assignment);

// Fraction of the ports in both assignments whose shard differs.
double moved_fraction(const std::map<PortRef, unsigned>& before,
                      const std::map<PortRef, unsigned>& after);

// What a split without hashing would do: nodes dealt round-robin in ascending GUID order.
std::vector<unsigned> round_robin_by_guid(const std::vector<poll::PortTarget>& targets,
                                          unsigned count);

}  // namespace ibpm::delegation::test
