// SPDX-License-Identifier: MIT
// What changed between a baseline fabric and the current one: nodes missing or new, cables lost,
// moved or new, links running below the baseline or below what both ends enable.
// Nodes are matched by GUID and ports by (node GUID, port number), never by description or LID.
#pragma once

#include <string>
#include <vector>

#include "fabric/fabric.hpp"
#include "fabric/node_name_map.hpp"

namespace ibpm::topology {

enum class ChangeKind { node_missing, node_new, link_lost, link_moved, link_new, link_degraded };

std::string_view to_string(ChangeKind kind);

struct TopologyChange {
  ChangeKind kind;
  std::string text;  // one line for operators, both cable ends named
};

struct TopologyDiff {
  std::vector<TopologyChange> changes;
  std::size_t count(ChangeKind kind) const;
};

// Compares current with baseline; without a baseline (nullptr) only degraded links are looked for.
TopologyDiff compare_topology(const Fabric* baseline, const Fabric& current,
                              const NodeNameMap* names);

}  // namespace ibpm::topology
