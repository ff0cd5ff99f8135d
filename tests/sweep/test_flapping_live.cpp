// SPDX-License-Identifier: MIT
// Flapping cables on a live fabric: a switch-to-switch cable whose LinkDowned counters rise on
// both ends three times within the window is CRITICAL as one cable (one alert, one event naming
// both ends), stays so through the recovery period, and clears after it; a host whose MADs are
// all dropped (powered off) is a node gone, not a flap.
//
// Short windows keep the test short: --flap-window 120 --flap-recovery 25.
#include <catch2/catch.hpp>
#include <chrono>
#include <fstream>
#include <thread>

#include "support/check_output.hpp"
#include "support/live_fabric.hpp"
#include "support/rrd_files.hpp"
#include "support/simulator.hpp"

using namespace ibpm::test;

namespace {

std::vector<std::string> lines_with(const std::string& path, const std::string& text) {
  std::vector<std::string> found;
  std::ifstream in(path);
  for (std::string line; std::getline(in, line);)
    if (line.find(text) != std::string::npos) found.push_back(line);
  return found;
}

}  // namespace

TEST_CASE("A cable that went down three times is flapping, as one cable, until it stays clean") {
  IBPM_REQUIRE_SIMULATOR();
  LiveFabric live = LiveFabric::start();
  StateDir state("flapping");
  const std::string events = state.path() + "/events.log";
  auto sweep = [&] {
    return live.run("check_ib_fabric", {"--state-dir", state.path(), "--no-syslog", "--events-file",
                                        events, "--flap-window", "120", "--flap-recovery", "25"});
  };
  const std::string near = "leaf01", far = live.peer_name("leaf01", 7);  // spine01[1]
  const std::string far_node = far.substr(0, far.find('['));
  const std::string far_port = far.substr(far.find('[') + 1, far.find(']') - far.find('[') - 1);
  REQUIRE(sweep().exit_code == 0);
  for (int down = 1; down <= 3; ++down) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1200));
    live.console("PerformanceSet \"leaf01\"[7] PortCounters.LinkDownedCounter=" +
                 std::to_string(down));
    live.console("PerformanceSet \"" + far_node + "\"[" + far_port +
                 "] PortCounters.LinkDownedCounter=" + std::to_string(down));
    const ProcessRun run = sweep();
    INFO("down " << down << ": " << run.out);
    if (down < 3) CHECK_FALSE(run.has("flapping"));
  }
  auto flapping_now = [&] {
    const ProcessRun run = sweep();
    INFO(run.out);
    return run;
  };
  const auto after_three = std::chrono::steady_clock::now();
  ProcessRun run = flapping_now();
  INFO(run.out);
  CHECK(run.exit_code == 2);  // between two switches: CRITICAL by default
  CHECK(run.has("flapping: went down 3 times in 2 min"));
  CHECK((run.has("leaf01[7] <-> " + far) || run.has(far + " <-> leaf01[7]")));
  CHECK(run.has("1 in error"));  // one cable, one port in error
  // One event for the cable, naming both ends.
  std::vector<std::string> flaps = lines_with(events, "flapping");
  REQUIRE(flaps.size() == 1);
  CHECK(flaps[0].find("leaf01[7]") != std::string::npos);
  CHECK(flaps[0].find(far) != std::string::npos);

  // Held through the recovery period: clean sweeps still say so.
  std::this_thread::sleep_for(std::chrono::seconds(8));
  run = sweep();
  CHECK(run.has("flapping"));
  CHECK(run.exit_code == 2);
  // Clean for longer than the recovery period: it clears, with one event back to OK.
  std::this_thread::sleep_until(after_three + std::chrono::seconds(28));
  run = sweep();
  INFO(run.out);
  CHECK_FALSE(run.has("flapping"));
  CHECK(run.exit_code == 0);
  CHECK(lines_with(events, "flapping").size() == 1);

  // A host powered off (every MAD to it dropped): unreachable, not flapping.
  const std::string host = live.peer_name("leaf02", 1);
  live.console("Error \"" + host.substr(0, host.find('[')) + "\" 100");
  run = sweep();
  INFO(run.out);
  CHECK(run.has("unreachable"));
  CHECK_FALSE(run.has("flapping"));
  live.console("Error \"" + host.substr(0, host.find('[')) + "\" 0");
}

TEST_CASE("A node rebooted three times within the window does not make its cables flap") {
  IBPM_REQUIRE_SIMULATOR();
  LiveFabric live = LiveFabric::start();
  StateDir state("reboots");
  auto sweep = [&] {
    return live.run("check_ib_fabric", {"--state-dir", state.path(), "--no-syslog", "--flap-window",
                                        "120", "--flap-recovery", "25"});
  };
  const std::string far = live.peer_name("leaf01", 7);  // spine01[1]
  const std::string far_node = far.substr(0, far.find('['));
  const std::string far_port = far.substr(far.find('[') + 1, far.find(']') - far.find('[') - 1);
  const std::string far_counters = "PerformanceSet \"" + far_node + "\"[" + far_port + "] ";
  REQUIRE(sweep().exit_code == 0);
  for (int reboot = 1; reboot <= 3; ++reboot) {
    // Traffic since the last reboot, then the reboot: leaf01[7] sees its link go down, and the
    // rebooted spine's counters start again from zero.
    for (const char* attribute : {"PortCounters", "PortCountersExtended"})
      live.console(far_counters + attribute + ".PortXmitData=5000000");
    std::this_thread::sleep_for(std::chrono::milliseconds(1200));
    REQUIRE(sweep().exit_code == 0);
    live.console("PerformanceSet \"leaf01\"[7] PortCounters.LinkDownedCounter=" +
                 std::to_string(reboot));
    for (const char* attribute : {"PortCounters", "PortCountersExtended"})
      live.console(far_counters + attribute + ".PortXmitData=0");
    std::this_thread::sleep_for(std::chrono::milliseconds(1200));
    const ProcessRun run = sweep();
    INFO("reboot " << reboot << ": " << run.out);
    CHECK_FALSE(run.has("flapping"));
  }
  const ProcessRun run = sweep();
  INFO(run.out);
  CHECK_FALSE(run.has("flapping"));
  CHECK(run.exit_code == 0);
}

TEST_CASE("A host rebooted three times with traffic between never flaps, in later sweeps either") {
  IBPM_REQUIRE_SIMULATOR();
  LiveFabric live = LiveFabric::start();
  StateDir state("host-reboots");
  auto sweep = [&] {
    return live.run("check_ib_fabric", {"--state-dir", state.path(), "--no-syslog", "--flap-window",
                                        "120", "--flap-recovery", "60"});
  };
  const std::string host = live.peer_name("leaf01", 1);  // a host CA's port
  const std::string host_node = host.substr(0, host.find('['));
  const std::string host_port =
      host.substr(host.find('[') + 1, host.find(']') - host.find('[') - 1);
  const std::string host_counters = "PerformanceSet \"" + host_node + "\"[" + host_port + "] ";
  auto set_host_data = [&](long long value) {
    for (const char* attribute : {"PortCounters", "PortCountersExtended"})
      for (const char* counter : {"PortXmitData", "PortRcvData", "PortXmitPkts", "PortRcvPkts"})
        live.console(host_counters + attribute + "." + counter + "=" + std::to_string(value));
  };
  auto no_flap = [&](const std::string& when) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1100));
    const ProcessRun run = sweep();
    INFO(when << ": " << run.out);
    CHECK_FALSE(run.has("flapping"));
    return run;
  };
  REQUIRE(sweep().exit_code == 0);
  long long traffic = 0;
  for (int reboot = 1; reboot <= 3; ++reboot) {
    const std::string name = "reboot " + std::to_string(reboot);
    for (int k = 0; k < 2; ++k) {  // traffic since the last reboot
      traffic += 4000000;
      set_host_data(traffic);
      no_flap(name + ", traffic");
    }
    // The leaf port's link goes down as the host goes away, seen one sweep before its counters
    // come back from zero (the host still answered with its old ones: its driver went first).
    // (A down seen with the reset in the same sweep is the test above.)
    live.console("PerformanceSet \"leaf01\"[1] PortCounters.LinkDownedCounter=" +
                 std::to_string(reboot));
    no_flap(name + ", its link down");
    set_host_data(0);
    traffic = 0;
    no_flap(name + ", its counters from zero");
  }
  for (int after = 1; after <= 4; ++after) {  // traffic going on
    traffic += 4000000;
    set_host_data(traffic);
    const ProcessRun run = no_flap("sweep " + std::to_string(after) + " after the third reboot");
    CHECK(run.exit_code == 0);
  }
}
