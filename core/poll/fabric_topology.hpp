// The topology source the fabric options on a command line describe (--cache, --state-dir,
// --node-name-map, -C/-P).
#pragma once

#include "plugin/options.hpp"
#include "topology/topology_source.hpp"

namespace ibpm::poll {

TopologySource topology_source(const plugin::FabricOptions& options);

}  // namespace ibpm::poll
