// SPDX-License-Identifier: MIT
// A recording of many sweeps becomes a state directory: sweeps of a known traffic pattern on
// ibsim recorded into one file, split into runs (ibpm-split-recording) and replayed in turn
// without the simulator into a fresh state directory, give the same ibpm-locality report as the
// live state directory (both read at one frozen clock, so their windows are the same seconds).
#include <algorithm>
#include <catch2/catch.hpp>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <thread>

#include "sim/traffic.hpp"
#include "support/live_fabric.hpp"
#include "support/simulator.hpp"

using namespace ibpm;
using namespace ibpm::test;

namespace replay_locality_test {

constexpr double MB = 1e6;
const char* const kFaketime = "/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1";

std::string host(int n) {
  char name[16];
  std::snprintf(name, sizeof name, "cn%04d", n);
  return name;
}

// A ring inside leaf01, leaf02 <-> leaf03 across the spines, leaf04 half local.
std::vector<sim::Flow> jobs() {
  std::vector<sim::Flow> flows;
  for (int i = 1; i <= 6; ++i) flows.push_back({host(i), host(i % 6 + 1), 300 * MB});
  for (int i = 0; i < 6; ++i) flows.push_back({host(7 + i), host(13 + i), 120 * MB});
  flows.push_back({host(19), host(20), 400 * MB});
  flows.push_back({host(21), host(31), 150 * MB});
  return flows;
}

// ibpm-locality over the last `window` seconds of `state`, with the clock frozen at `now`.
ProcessRun locality(const std::string& state, const std::string& cache, std::time_t now,
                    long window) {
  char frozen[32];
  std::strftime(frozen, sizeof frozen, "%Y-%m-%d %H:%M:%S", std::gmtime(&now));
  // Under the sanitizers faketime comes before the ASan runtime, which then refuses to start
  // unless told that the order is meant.
  const char* asan = std::getenv("ASAN_OPTIONS");
  const std::string asan_options = "ASAN_OPTIONS=" + std::string(asan ? asan : "") +
                                   (asan && *asan ? ":" : "") + "verify_asan_link_order=0";
  return run_process({"env", std::string("LD_PRELOAD=") + kFaketime, "TZ=UTC", asan_options,
                      std::string("FAKETIME=") + frozen, bin("ibpm-locality"), "--state-dir", state,
                      "--cache", cache, "--window", std::to_string(window), "--format", "csv"});
}

// `night` split into its runs (in `runs_dir`, `expected` of them) and each replayed in turn by
// check_ib_fabric with `args`, whose last one (the --replay file) is the run.
void replay_in_turn(const std::string& night, const std::string& runs_dir, std::size_t expected,
                    std::vector<std::string> args) {
  const ProcessRun split = run_process({bin("ibpm-split-recording"), night, "-o", runs_dir},
                                       {.env = {}, .stderr_to = Stderr::merged});
  INFO(split.out);
  REQUIRE(split.exit_code == 0);
  std::vector<std::string> runs;
  for (const auto& entry : std::filesystem::directory_iterator(runs_dir))
    runs.push_back(entry.path().string());
  std::sort(runs.begin(), runs.end());
  REQUIRE(runs.size() == expected);
  args.insert(args.begin(), bin("check_ib_fabric"));
  for (const std::string& run : runs) {
    args.back() = run;
    const ProcessRun replay = run_process(args);
    INFO(run << ":\n" << replay.out << replay.err);
    REQUIRE(replay.exit_code == 0);
  }
}

}  // namespace replay_locality_test

using namespace replay_locality_test;

TEST_CASE("Sweeps recorded into one file and replayed in turn give the live locality report") {
  IBPM_REQUIRE_SIMULATOR();
  if (!std::filesystem::exists(kFaketime))
    IBPM_SKIP("faketime not installed (apt-get install faketime)");
  TempDir dir("replay-locality");
  const std::string cache = dir / "fabric.cache";
  const std::string night = dir / "night.pcap";
  const auto sweep_args = [&](const std::string& state, const std::string& mode,
                              const std::string& file) {
    return std::vector<std::string>{"--state-dir", state, "--no-syslog", "--rrd-step", "1",
                                    "--cache",     cache, mode,          file};
  };
  std::time_t window_start = 0;
  {
    LiveFabric live = LiveFabric::start();
    REQUIRE(live.fabric.run_client({"ibnetdiscover", "--cache", cache}) == 0);
    sim::TrafficPattern traffic(live.tree.topology, jobs());
    REQUIRE(live.run("check_ib_fabric", sweep_args(dir / "live", "--record", night)).exit_code ==
            0);
    const auto t0 = std::chrono::steady_clock::now();
    for (int k = 0; k < 4; ++k) {
      std::this_thread::sleep_for(std::chrono::seconds(3));
      live.fabric.console(traffic.counter_commands(
          1 + std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count()));
      const ProcessRun run =
          live.run("check_ib_fabric", sweep_args(dir / "live", "--record", night));
      INFO(run.out << run.err);
      REQUIRE(run.exit_code == 0);
      if (k == 1) window_start = std::time(nullptr) + 1;
    }
  }  // the simulator stops here

  replay_in_turn(night, dir / "runs", 5, sweep_args(dir / "replay", "--replay", ""));

  const std::time_t now = std::time(nullptr) + 1;
  const long window = static_cast<long>(now - window_start);
  const ProcessRun live_report = locality(dir / "live", cache, now, window);
  const ProcessRun replayed_report = locality(dir / "replay", cache, now, window);
  INFO("live:\n"
       << live_report.out << live_report.err << "replayed:\n"
       << replayed_report.out << replayed_report.err);
  REQUIRE(live_report.exit_code == 0);
  CHECK(replayed_report.exit_code == 0);
  CHECK(live_report.line_count() == 8);  // a header, six leaves and the spines' set
  CHECK(live_report.has("leaf01"));
  CHECK(replayed_report.out == live_report.out);
}

namespace replay_locality_test {

// `program` on the simulated fabric with its clock starting at `at` (faketime after the
// simulator's own preload, so both take effect).
ProcessRun run_at(LiveFabric& live, std::time_t at, const std::string& program,
                  const std::vector<std::string>& args) {
  char start[40];
  std::strftime(start, sizeof start, "@%Y-%m-%d %H:%M:%S", std::gmtime(&at));
  std::string preload;
  for (const std::string& var : live.fabric.client_env_overrides())
    if (var.rfind("LD_PRELOAD=", 0) == 0) preload = var + ":" + kFaketime;
  std::vector<std::string> argv{"env", preload, "TZ=UTC", std::string("FAKETIME=") + start,
                                bin(program)};
  argv.insert(argv.end(), args.begin(), args.end());
  ProcessRun run;
  run.exit_code = live.fabric.run_client(argv, &run.out, &run.err);
  return run;
}

}  // namespace replay_locality_test

TEST_CASE(
    "An hour of sweeps at the packaged 60 s step, recorded and replayed, gives the live "
    "report of the last hour") {
  IBPM_REQUIRE_SIMULATOR();
  if (!std::filesystem::exists(kFaketime))
    IBPM_SKIP("faketime not installed (apt-get install faketime)");
  TempDir dir("replay-locality-hour");
  const std::string cache = dir / "fabric.cache";
  const std::string night = dir / "night.pcap";
  const auto sweep_args = [&](const std::string& state, const std::string& mode,
                              const std::string& file) {
    return std::vector<std::string>{"--state-dir", state, "--no-syslog", "--cache",
                                    cache,         mode,  file};
  };
  // An hour ago, on a whole minute plus 17 s: sweeps at the timer's pace, with the clock of each
  // sweep 60 s after the last one's.
  constexpr int kSweeps = 61;
  const std::time_t now = std::time(nullptr);
  const std::time_t first = now - now % 60 - 3600 - 60 + 17;
  {
    LiveFabric live = LiveFabric::start();
    REQUIRE(live.fabric.run_client({"ibnetdiscover", "--cache", cache}) == 0);
    sim::TrafficPattern traffic(live.tree.topology, jobs());
    for (int k = 0; k < kSweeps; ++k) {
      if (k > 0) live.fabric.console(traffic.counter_commands(60.0 * k));
      const ProcessRun run = run_at(live, first + 60 * k, "check_ib_fabric",
                                    sweep_args(dir / "live", "--record", night));
      INFO("sweep " << k << ": " << run.out << run.err);
      REQUIRE(run.exit_code == 0);
    }
  }  // the simulator stops here

  replay_in_turn(night, dir / "runs", kSweeps, sweep_args(dir / "replay", "--replay", ""));

  // "The last hour" as a user asks for it, a few seconds after the last sweep: not aligned with
  // the sweeps' minutes.
  const std::time_t asked = first + 60 * (kSweeps - 1) + 25;
  const ProcessRun live_report = locality(dir / "live", cache, asked, 3600);
  const ProcessRun replayed_report = locality(dir / "replay", cache, asked, 3600);
  INFO("live:\n"
       << live_report.out << live_report.err << "replayed:\n"
       << replayed_report.out << replayed_report.err);
  REQUIRE(live_report.exit_code == 0);
  CHECK(replayed_report.exit_code == 0);
  CHECK(live_report.line_count() == 8);  // a header, six leaves and the spines' set
  CHECK(live_report.has("leaf01"));
  CHECK(replayed_report.out == live_report.out);
  // The replayed sweeps keep the recording's time: the last one's summary says it started when
  // the last live sweep did (the recording's last packet, within the sweep), not an hour later.
  const auto started = [](const std::string& state) {
    std::ifstream in(state + "/sweep/fabric.json");
    const std::string json((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const std::size_t at = json.find("\"started\":");
    REQUIRE(at != std::string::npos);
    return std::stod(json.substr(at + 10));
  };
  CHECK(std::abs(started(dir / "replay") - started(dir / "live")) < 5);
}
