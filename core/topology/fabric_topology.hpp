// SPDX-License-Identifier: MIT
// The topology source the fabric options on a command line describe (--cache, --state-dir,
// --node-name-map, -C/-P): the one translation of plugin::FabricOptions every command uses.
#pragma once

#include "mad/mad_tap_fwd.hpp"
#include "plugin/options.hpp"
#include "topology/topology_source.hpp"

namespace ibpm::topology {

// `tap`, when given, records or replays a discovery (--record, --replay).
TopologySource topology_source(const plugin::FabricOptions& options, mad::MadTap* tap = nullptr);

}  // namespace ibpm::topology
