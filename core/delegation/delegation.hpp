// SPDX-License-Identifier: MIT
// Splitting a fabric's ports among N collectors (check_ib_fabric --shard K/N): every host runs
// the same computation on the same topology and delegation file and polls its own share, without
// talking to the others.
//
// What the split guarantees:
//   - shards 1..N together hold every target exactly once;
//   - a node's targeted ports stay together (its state directory is locked per node), except
//     ports a pin lists;
//   - the result depends on the topology and the delegation file only, not on the order of
//     nodes or targets (rendezvous hashing of node GUIDs with a fixed mixer);
//   - loads are even: no shard above ceil(1.1 * ports / N) unless pins, or nodes too big for the
//     slack, force it; in practice within a few percent of ports / N on both sides (on a
//     648-host fat tree, 645..649 ports per shard for N = 4);
//   - a switch appearing or disappearing moves few other ports: 2-3% of them for N = 4 on that
//     fabric (see bounded_placement.hpp for how).
#pragma once

#include <cstddef>
#include <vector>

#include "delegation/delegation_file.hpp"
#include "delegation/shard_spec.hpp"
#include "poll/target.hpp"

namespace ibpm::delegation {

enum class AssignMode {
  even,     // rendezvous hashing with bounded loads
  nearest,  // each node to the shard whose collector is fewest hops away (needs a collector per
            // shard in the delegation file); ties and unreachable nodes by the even rule
};

// The shard (1..count) of each target, in the order of `targets`. Pins win in both modes.
// Throws std::invalid_argument when count is outside 1..max_shard_count, the delegation file is
// written for another N, a pin or collector names a shard beyond count, pins overlap, or nearest
// mode lacks a collector for some shard (or one is not in the fabric).
std::vector<unsigned> assign_shards(const Fabric& fabric,
                                    const std::vector<poll::PortTarget>& targets, unsigned count,
                                    const DelegationFile& delegation, AssignMode mode);

// The targets of shard spec.index, in their order in `targets`.
std::vector<poll::PortTarget> shard_targets(const Fabric& fabric,
                                            const std::vector<poll::PortTarget>& targets,
                                            ShardSpec spec, const DelegationFile& delegation,
                                            AssignMode mode);

// Ports per shard (index 0 = shard 1) of an assignment, for reports.
std::vector<std::size_t> shard_loads(const std::vector<unsigned>& assignment, unsigned count);

}  // namespace ibpm::delegation
