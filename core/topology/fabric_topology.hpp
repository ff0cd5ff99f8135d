// SPDX-License-Identifier: MIT
// The topology source the fabric options on a command line describe (--cache, --state-dir,
// --node-name-map, -C/-P): the one translation of plugin::FabricOptions every command uses.
#pragma once

#include "plugin/options.hpp"
#include "topology/topology_source.hpp"

namespace ibpm::topology {

TopologySource topology_source(const plugin::FabricOptions& options);

}  // namespace ibpm::topology
