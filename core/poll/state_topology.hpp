// The topology a polling run works from: --cache when given; otherwise
// STATE_DIR/topology.ibnetdiscover, which a live discovery writes the first time and rewrites
// whenever the fabric turns out to have changed.
#pragma once

#include <string>

#include "plugin/options.hpp"
#include "topology/topology.hpp"

namespace ibpm::poll {

// STATE_DIR/topology.ibnetdiscover. An ibnetdiscover dump rather than a libibnetdisc cache
// file: ibpm reads a dump several times faster than ibnd_load_fabric reads its cache, and every
// check run reads it.
std::string state_topology_path(const plugin::FabricOptions& options);

// A live discovery through -C/-P.
Topology discover(const plugin::FabricOptions& options);

// Replaces the state directory's topology (atomically).
void save_state_topology(const plugin::FabricOptions& options, const Fabric& fabric);

// --cache, else the state directory's topology, else a discovery that writes it. With
// force_discovery, a discovery that rewrites it in any case.
Topology load_topology(const plugin::FabricOptions& options, bool force_discovery);

}  // namespace ibpm::poll
