// SPDX-License-Identifier: MIT
// What a re-poll refreshes of the nodes it reads, without a discovery (traps 144 and 145: a
// node's description, capabilities or enabled width or speed changed, or its system image GUID):
// each node's NodeDescription and NodeInfo read from its LID (2 MADs a node), and the changes
// from the topology (description, system image GUID) said and written into it. The enabled and
// active widths and speeds are read by the re-poll itself (PortInfo, every port) and judged
// against the saved topology, which keeps the active ones as the baseline: they are not
// rewritten (a link trained down must stay degraded against it).
#pragma once

#include <set>
#include <string>
#include <vector>

#include "fabric/fabric.hpp"
#include "mad/mad_engine.hpp"

namespace ibpm::sweep {

struct NodeChange {
  Guid node = 0;
  std::string description;  // as the node says it now (printable, no quote)
  Guid system_image_guid = 0;
};

// The nodes of `nodes` (GUIDs in `fabric`, with a LID) whose description or system image GUID is
// not the topology's; a node that does not answer, or answers as another node, is left out.
std::vector<NodeChange> read_node_changes(mad::MadEngine& engine, const mad::EngineOptions& options,
                                          const Fabric& fabric, const std::set<Guid>& nodes);

// The change applied to the node in `fabric` (nothing when it lacks the node); the text that
// says it ("leaf02 (0x...): description "old" -> "new""), empty when nothing changed.
std::string apply_node_change(Fabric& fabric, const NodeChange& change);

}  // namespace ibpm::sweep
