// SPDX-License-Identifier: MIT
// OpenSM running as a daemon (no -o: it keeps sweeping and forwarding traps) on a simulated
// fabric, with the ibpm event plugin loaded, for the tests of the plugin and of ibpm-events.
#pragma once

#include <chrono>
#include <filesystem>
#include <memory>
#include <string>

#include "sim/simulated_fabric.hpp"
#include "support/process.hpp"

namespace ibpm::test {

// OpenSM in DIR (its conf, log DIR/osm.log and cache there) loading the plugin `plugin` (the
// built libibpm_event_plugin.so) with its socket at `socket`. OpenSM dlopens "lib" NAME ".so"
// (osm_event_plugin.c), never a path, so the plugin's folder goes first in LD_LIBRARY_PATH.
std::unique_ptr<BackgroundProcess> start_opensm_with_plugin(sim::SimulatedFabric& fabric,
                                                            const std::filesystem::path& dir,
                                                            const std::string& socket,
                                                            const std::string& plugin);

// OpenSM running as a daemon with the opensm.conf `conf` (a path), its log, cache and dumps
// (sa_db_dump: opensm-sa.dump) in `home`, attached to the simulated host `host` (SIM_HOST; empty:
// the first node) with priority `priority` (-1: its default).
std::unique_ptr<BackgroundProcess> start_opensm_daemon(sim::SimulatedFabric& fabric,
                                                       const std::filesystem::path& home,
                                                       const std::filesystem::path& conf,
                                                       const std::string& host = "",
                                                       int priority = -1);

// Waits up to `limit` for `text` in the file `log`.
bool log_says(const std::filesystem::path& log, const std::string& text,
              std::chrono::milliseconds limit);

}  // namespace ibpm::test
