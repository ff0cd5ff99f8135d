// SPDX-License-Identifier: MIT
// Cables a discovery no longer sees, kept until the operator accepts the new topology. A cable
// that went down stops being discovered: without this, the next discovery would drop its ports
// from every check, and the switches would say "all OK" (a false recovery) while the cable is
// still out. So when a discovery replaces the state topology, the cables of the old one whose
// ports the new one has uncabled (a port now cabled elsewhere is a moved cable, which the
// topology check reports) are kept in STATE_DIR/lost-cables.ibnetdiscover, and every command
// that loads the state topology sees them cabled again: their ports are polled, found Down and
// reported with both ends named. A cable leaves the file when a discovery sees either of its
// ports cabled, or when check_ib_topology --write-baseline accepts the fabric as it is.
#pragma once

#include <string>

#include "fabric/fabric.hpp"

namespace ibpm::topology {

// The cables of `before` whose ports are both uncabled (or absent) in `now`, and that still
// touch a node of `now`: a fabric of just those cables and their two end nodes.
Fabric lost_cables(const Fabric& before, const Fabric& now);

// Cables `lost` into `fabric`: an end node the fabric lacks is added without LIDs (it is gone:
// nothing to query, and its old LID may be someone else's now). A cable whose port is cabled
// in `fabric` is left out. Returns how many cables were added.
std::size_t add_lost_cables(Fabric& fabric, const Fabric& lost);

// STATE_DIR/lost-cables.ibnetdiscover: empty fabric when there is none. Throws
// std::runtime_error with a one-line reason when it cannot be read.
Fabric load_lost_cables(const std::string& state_dir);
// Replaces the file atomically, or removes it when `lost` has no cable.
void save_lost_cables(const std::string& state_dir, const Fabric& lost);

}  // namespace ibpm::topology
