// SPDX-License-Identifier: MIT
// The pieces a split moves whole. A node's state lives in one directory, locked per node, so all
// the targeted ports of a node go to one collector; ports a pin lists are the exception, a piece
// of their own on the pinned shard.
#pragma once

#include <cstddef>
#include <vector>

#include "delegation/delegation_file.hpp"
#include "poll/target.hpp"

namespace ibpm::delegation {

struct Unit {
  Guid node = 0;
  std::vector<std::size_t> targets;  // indices into the target list
  unsigned pinned_shard = 0;         // 0: free to place
  std::size_t weight() const { return targets.size(); }
};

// Units in ascending node GUID order (a node's pinned port lists before the rest of it).
// Throws std::invalid_argument when a pin names a shard outside 1..count or two pins overlap.
std::vector<Unit> make_units(const std::vector<poll::PortTarget>& targets,
                             const std::vector<Pin>& pins, unsigned count);

}  // namespace ibpm::delegation
