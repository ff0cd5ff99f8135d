// SPDX-License-Identifier: MIT
// ibpm-events listening on a simulated fabric, and OpenSM running as a daemon that hands it the
// traps through the event plugin: what every live test of the listener starts from.
#pragma once

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "support/live_fabric.hpp"
#include "support/process.hpp"

namespace ibpm::test {

struct ListenerWithOpenSm {
  std::unique_ptr<BackgroundProcess> listener;  // its log: WORK/listener.log
  std::unique_ptr<BackgroundProcess> opensm;    // its log: WORK/osm.log
};

// The listener (`options`, then the re-poll check_ib_fabric `repoll`) started as a client of
// the simulation (its re-polls are), then OpenSM with the plugin sending to `socket`; returns
// once OpenSM's subnet is up and its start-up traps are handled. A failed start fails the test.
ListenerWithOpenSm start_listener_with_opensm(LiveFabric& live, const std::filesystem::path& work,
                                              const std::string& socket,
                                              const std::vector<std::string>& options,
                                              const std::vector<std::string>& repoll);

}  // namespace ibpm::test
