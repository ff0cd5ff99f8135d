// SPDX-License-Identifier: MIT
// check_ib_sm --record and --replay: two runs recorded on a simulated fabric with one OpenSM, then
// replayed in a plain process (no LD_PRELOAD, the simulator stopped) into a fresh state directory,
// give the live runs' exit code, status line, perfdata and long output (the ActCount rate from
// the recording's clock); a query the recording lacks is UNKNOWN in one line naming it.
#include <catch2/catch.hpp>
#include <chrono>
#include <fstream>
#include <regex>
#include <thread>

#include "support/opensm_daemon.hpp"
#include "support/process.hpp"
#include "support/simulator.hpp"
#include "support/temp_dir.hpp"

using namespace ibpm::test;
using namespace std::chrono_literals;

namespace sm_record_test {

// The check's client attaches to the first node (h0), the SM to h1.
constexpr const char* kNet = R"(Hca 1 "h0"
[1] "sw1"[1]

Hca 1 "h1"
[1] "sw1"[2]

Switch 8 "sw1"
[1] "h0"[1]
[2] "h1"[1]
)";

std::vector<std::string> check_argv(const std::vector<std::string>& args) {
  std::vector<std::string> argv{
      bin("check_ib_sm"), "--mad-timeout", "200", "--mad-retries", "1", "-t", "10", "--no-syslog"};
  argv.insert(argv.end(), args.begin(), args.end());
  return argv;
}

ProcessRun live_check(ibpm::sim::SimulatedFabric& fabric, const std::vector<std::string>& args) {
  ProcessRun run;
  run.exit_code = fabric.run_client(check_argv(args), &run.out, &run.err);
  return run;
}

// The output without the run's own time: how long the SA query took (a replay takes none).
std::string time_independent(const std::string& output) {
  return std::regex_replace(output, std::regex(R"(sa_query_time=[0-9.e-]+s)"), "sa_query_time=T");
}

}  // namespace sm_record_test

using namespace sm_record_test;

TEST_CASE("check_ib_sm runs recorded on ibsim replay without it to the live output") {
  IBPM_REQUIRE_SIMULATOR();
  if (find_program("opensm").empty()) IBPM_SKIP("opensm not installed");
  TempDir dir("sm-record");
  // Light sweeps every second: the master sends SMPs, so its ActCount moves between the runs.
  std::ofstream(dir / "opensm.conf") << "sweep_interval 1\n";
  std::vector<ProcessRun> live;
  {
    ibpm::sim::SimulatedFabric::Options options;
    options.run_subnet_manager = false;
    auto fabric = ibpm::sim::SimulatedFabric::start_text(kNet, options);
    const auto sm = start_opensm_daemon(fabric, dir / "h1", dir / "opensm.conf", "h1", 10);
    // Until the SM is master (a state directory of its own: the recorded runs start fresh).
    ProcessRun up;
    for (const auto end = std::chrono::steady_clock::now() + 30s;
         std::chrono::steady_clock::now() < end; std::this_thread::sleep_for(300ms)) {
      up = live_check(fabric, {"--state-dir", dir / "warm-up"});
      if (up.exit_code == 0) break;
    }
    INFO(up.out << up.err);
    REQUIRE(up.exit_code == 0);
    for (int run = 1; run <= 2; ++run) {
      if (run == 2) std::this_thread::sleep_for(1500ms);
      live.push_back(live_check(fabric, {"--state-dir", dir / "live", "--record",
                                         dir / ("run-" + std::to_string(run) + ".pcap")}));
    }
  }  // OpenSM and the simulator stop here
  INFO("live:\n" << live[0].out << live[0].err << live[1].out << live[1].err);
  REQUIRE(live[0].exit_code == 0);
  REQUIRE(live[1].exit_code == 0);
  CHECK(live[1].has("IB SM OK - master h1 ("));
  CHECK(std::regex_search(live[1].out, std::regex(R"(ActCount [0-9]+ \([0-9.]+/s\))")));

  // A plain process, nothing to answer but the recordings, into a fresh state directory.
  for (std::size_t run = 0; run < 2; ++run) {
    const std::string file = dir / ("run-" + std::to_string(run + 1) + ".pcap");
    const ProcessRun replay =
        run_process(check_argv({"--state-dir", dir / "replay", "--replay", file}));
    INFO("run " << run + 1 << ", live:\n"
                << live[run].out << "replayed:\n"
                << replay.out << replay.err);
    CHECK(replay.exit_code == live[run].exit_code);
    CHECK(time_independent(replay.out) == time_independent(live[run].out));
  }

  // --node-name-map asks each SM's NodeInfo, which the recording never did: named in one line.
  std::ofstream(dir / "names") << "# no names\n";
  const ProcessRun missing =
      run_process(check_argv({"--state-dir", dir / "other", "--node-name-map", dir / "names",
                              "--replay", dir / "run-1.pcap"}));
  INFO(missing.out << missing.err);
  CHECK(missing.exit_code == 3);
  CHECK(missing.line_count() == 1);
  CHECK(std::regex_match(missing.first_line(),
                         std::regex("IB SM UNKNOWN - --replay .*/run-1.pcap: the recording has no "
                                    "answer to NodeInfo Get to LID [0-9]+")));
  // Not a recording: one line, UNKNOWN.
  const ProcessRun text =
      run_process(check_argv({"--state-dir", dir / "other", "--replay", dir / "opensm.conf"}));
  CHECK(text.exit_code == 3);
  CHECK(text.line_count() == 1);
  CHECK(text.first_line().rfind("IB SM UNKNOWN - --replay ", 0) == 0);
}
