// SPDX-License-Identifier: MIT

#include "listener_with_opensm.hpp"

#include <catch2/catch.hpp>
#include <chrono>
#include <thread>

#include "support/opensm_daemon.hpp"
#include "support/text_files.hpp"

namespace ibpm::test {

ListenerWithOpenSm start_listener_with_opensm(LiveFabric& live, const std::filesystem::path& work,
                                              const std::string& socket,
                                              const std::vector<std::string>& options,
                                              const std::vector<std::string>& repoll) {
  std::vector<std::string> argv{"/usr/bin/env"};
  for (const std::string& var : live.fabric.client_env_overrides()) argv.push_back(var);
  argv.insert(argv.end(), {bin("ibpm-events"), "--socket", socket});
  argv.insert(argv.end(), options.begin(), options.end());
  argv.insert(argv.end(), {"--", bin("check_ib_fabric")});
  argv.insert(argv.end(), repoll.begin(), repoll.end());
  ListenerWithOpenSm run;
  run.listener = std::make_unique<BackgroundProcess>(argv, work / "listener.log");
  REQUIRE(log_says(work / "listener.log", "listening on " + socket, std::chrono::seconds(10)));
  run.opensm = start_opensm_with_plugin(live.fabric, work, socket, IBPM_EVENT_PLUGIN);
  INFO(read_text(work / "listener.log"));
  REQUIRE(log_says(work / "osm.log", "SUBNET UP", std::chrono::seconds(60)));
  std::this_thread::sleep_for(std::chrono::seconds(1));  // OpenSM's own start-up traps handled
  return run;
}

}  // namespace ibpm::test
