// SPDX-License-Identifier: MIT
// A plugin folder for a monitoring daemon under test: one script per check_ib_* that runs the
// real check as a client of the simulation (Nagios and Icinga 2 give plugins a clean
// environment, so the simulator's variables are set in the script; the line its library writes
// on stderr, which Icinga 2 would take into the output, is dropped).
#pragma once

#include <filesystem>

#include "support/live_fabric.hpp"

namespace ibpm::nagios_test {

// Writes DIR/check_ib_{topology,port,node,fabric,sm,routes}.
void write_check_wrappers(ibpm::test::LiveFabric& live, const std::filesystem::path& dir);

}  // namespace ibpm::nagios_test
