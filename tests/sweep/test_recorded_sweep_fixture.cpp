// SPDX-License-Identifier: MIT
// Makes the recorded fixture (recorded_fixture.hpp) on ibsim: two sweeps, errors and traffic set
// between them so that the second judges rates and is CRITICAL, then a node check, each recorded
// with its output into the build tree's tests/recordings/ibsim-sweep, which
// test_recorded_sweep_replay replays without ibsim. Without ibsim it is Skipped and leaves a
// recording made before in place.
#include <catch2/catch.hpp>
#include <filesystem>

#include "support/live_fabric.hpp"
#include "support/simulator.hpp"
#include "sweep/recorded_fixture.hpp"

using namespace ibpm::test;

TEST_CASE("A sweep recorded on ibsim with its output becomes a fixture in the build tree") {
  IBPM_REQUIRE_SIMULATOR();
  const std::filesystem::path recordings = IBPM_RECORDINGS;
  const std::filesystem::path fixture = recordings / "ibsim-sweep";
  // Made beside the fixture and moved into its place whole: a replay never reads half of one.
  const std::filesystem::path making = recordings / ".ibsim-sweep.new";
  std::filesystem::remove_all(making);
  std::filesystem::create_directories(making);
  TempDir dir("recorded-fixture");
  const std::string state = dir / "state";
  {
    LiveFabric live = LiveFabric::start();
    REQUIRE(live.fabric.run_client(
                {"ibnetdiscover", "--cache", (making / "fabric.cache").string()}) == 0);
    int n = 0;
    const auto run = [&](const std::vector<std::string>& command) {
      ++n;
      std::vector<std::string> argv =
          recorded::argv_of(command, making, state, "--record", recorded::recording_of(making, n));
      const std::string program = argv.front();
      argv.erase(argv.begin());
      const ProcessRun result = live.run(program, argv);
      INFO(program << ":\n" << result.out << result.err);
      REQUIRE(result.exit_code != 3);
      recorded::write_run(making, n, command, result.exit_code, result.out);
      return result;
    };
    run({"check_ib_fabric", "--no-syslog"});
    live.console("PerformanceSet \"leaf02\"[3] PortCounters.SymbolErrorCounter=500");
    live.console("PerformanceSet \"leaf04\"[8] PortCounters.PortRcvErrors=40");
    live.console("PerformanceSet \"leaf04\"[8] PortCountersExtended.PortXmitData=50000000000");
    live.console("PerformanceSet \"leaf04\"[8] PortCounters.PortXmitData=4000000000");
    const ProcessRun second = run({"check_ib_fabric", "--no-syslog"});
    CHECK(second.exit_code == 2);  // the errors are CRITICAL
    CHECK(second.has("symbol_errors="));
    run({"check_ib_node", "--node", "leaf04"});
  }
  std::filesystem::remove_all(fixture);
  std::filesystem::rename(making, fixture);
  CHECK(recorded::read_runs(fixture).size() == 3);
}
