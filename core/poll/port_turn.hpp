// SPDX-License-Identifier: MIT
// Work done for each port one run in N, each port at its own run, so that it spreads evenly over
// the runs: PortInfo of a quiet port (--port-info-every), a central store's check of a port's
// last update (--store-check-every). A port's turn follows from its LID and number, not its GUID:
// the sweep's choice of queries then survives ibpm-anonymize, which keeps LIDs and rewrites GUIDs,
// so an anonymized recording replays as the original does.
#pragma once

#include <cstdint>

#include "fabric/types.hpp"

namespace ibpm::poll {

// Whether run number `runs` is the port's turn of every `every` runs (always, for every <= 1).
bool port_turn(unsigned lid, PortNumber port, std::uint64_t runs, unsigned every);

}  // namespace ibpm::poll
