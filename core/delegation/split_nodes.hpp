// SPDX-License-Identifier: MIT
// Nodes whose ports a split puts on more than one shard (pins can do that), and which shard
// speaks for each: a switch's passive result must come from exactly one collector per sweep, or
// its service goes stale (no one submits) or flaps (two submit). Every collector computes the
// same assignment, so every collector agrees on the owner without talking to the others.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "poll/target.hpp"

namespace ibpm::delegation {

struct PortShard {
  PortNumber port = 0;
  unsigned shard = 0;  // 1..N
};

// Node -> each targeted port's shard, in port order; only nodes on more than one shard.
using SplitNodes = std::map<Guid, std::vector<PortShard>>;

// `assignment[i]` is the shard of `targets[i]` (assign_shards).
SplitNodes split_nodes(const std::vector<poll::PortTarget>& targets,
                       const std::vector<unsigned>& assignment);

// The shard that gives a split node's result: the one that reads most of its ports, the lowest
// numbered on a tie (its result covers as many of the node's ports as one shard can).
unsigned owning_shard(const std::vector<PortShard>& ports);

// "19-36 read by shard 3, 37 read by shard 4": the ports read by shards other than `shard`.
std::string ports_elsewhere(const std::vector<PortShard>& ports, unsigned shard);

// "1-18,20", as parse_port_list reads it; ports in ascending order.
std::string format_port_list(const std::vector<PortNumber>& ports);

}  // namespace ibpm::delegation
