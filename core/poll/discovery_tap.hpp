// SPDX-License-Identifier: MIT
// The MAD tap of a command whose MADs are a discovery's (check_ib_topology, ibpm-topology):
// --record and --replay as the options ask, which --cache (no discovery to record) refuses.
#pragma once

#include "mad/mad_link.hpp"
#include "plugin/options.hpp"

namespace ibpm::poll {

// Throws std::invalid_argument for --record or --replay with --cache, mad::MadError (one line)
// for a recording that cannot be used.
mad::MadTap discovery_tap(const plugin::FabricOptions& options);

}  // namespace ibpm::poll
