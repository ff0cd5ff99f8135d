// SPDX-License-Identifier: MIT
// A check of one node needs the node and its neighbours, not the whole fabric: reading a
// 5,000-node dump costs ~100x more than the check's own MADs. After a full resolution, the
// node's slice (the node, and each neighbour with the ports cabled to it) is kept in
// STATE_DIR/targets/<NODE as given>.ibnetdiscover, tagged with the file it came from and that
// file's modification time (and the node-name-map's). A slice is used only while its tag still
// matches, so a refreshed topology or map makes every slice stale at once.
#pragma once

#include <optional>
#include <string>

#include "fabric/fabric.hpp"
#include "topology/topology.hpp"

namespace ibpm::topology {

// The node and its neighbours: every port of the node, and on each neighbour only the port
// cabled to the node (with the neighbour's description, type and LID on port 0 of a switch).
Fabric slice_of(const Fabric& fabric, const Node& node);

struct SliceKey {
  std::string state_dir;
  std::string node;           // NODE as the operator wrote it
  std::string source;         // the topology file the slice is cut from
  std::string node_name_map;  // may be empty
};

// The slice for key when it is still valid, nullopt otherwise (missing, stale, unreadable).
std::optional<Topology> load_slice(const SliceKey& key);

// Best effort: a slice that cannot be written is only a slower next run.
void save_slice(const SliceKey& key, const Fabric& fabric, const Node& node);

}  // namespace ibpm::topology
