// SPDX-License-Identifier: MIT
// check_ib_port thresholds against a live fabric: the same increase of SymbolErrorCounter is
// WARNING, CRITICAL or OK by --warn/--crit, a --thresholds file and their units.
//
// Each variant keeps its own state directory, all with a baseline taken before the errors are
// injected, and the second runs come at least a second later: 600 errors in 1..~20 s are
// 30..600/s, 1800..36000/min, 108000..2160000/h, far from every threshold below.
#include <catch2/catch.hpp>
#include <chrono>
#include <fstream>
#include <memory>
#include <thread>

#include "support/check_output.hpp"
#include "support/live_fabric.hpp"
#include "support/rrd_files.hpp"
#include "support/simulator.hpp"

using namespace ibpm::test;

namespace {

struct Variant {
  std::string what;
  std::vector<std::string> options;
  int exit_code;
  std::string shown;  // in the long output, "" for none
};

}  // namespace

TEST_CASE("check_ib_port thresholds and their units decide the state of the same rate") {
  IBPM_REQUIRE_SIMULATOR();
  LiveFabric live = LiveFabric::start();
  StateDir files("threshold-files");
  const std::string warn_file = files.path() + "/warn.thresholds";
  std::ofstream(warn_file) << "# metric  warning  critical\n"
                              "symbol_errors   1000/min   100000/s   # a comment\n";
  const std::string crit_file = files.path() + "/crit.thresholds";
  std::ofstream(crit_file) << "SymbolErrorCounter\t-\t1000/h\n";

  const std::vector<Variant> variants = {
      {"defaults", {}, 2, "symbol_errors"},
      {"--warn per minute",
       {"--warn", "symbol_errors=1000/min", "--crit", "symbol_errors=-"},
       1,
       "(warning 1000/min)"},
      {"--warn alone keeps the default critical",
       {"--warn", "symbol_errors=1000/min"},
       2,
       "(warning 1000/min, critical 100/h)"},
      {"--warn and --crit per hour",
       {"--warn", "symbol_errors=1000/min", "--crit", "symbol_errors=100000/h"},
       2,
       "(warning 1000/min, critical 100000/h)"},
      {"the same numbers per second",
       {"--warn", "symbol_errors=1000/s", "--crit", "symbol_errors=2000/s"},
       0,
       ""},
      {"per second by default",
       {"--warn", "symbol_errors=1000", "--crit", "symbol_errors=2000"},
       0,
       ""},
      {"only the given thresholds", {"--no-default-thresholds"}, 0, ""},
      {"a file", {"--thresholds", warn_file}, 1, "(warning 1000/min, critical 100000/s)"},
      {"a file with a perfquery name", {"--thresholds", crit_file}, 2, "(critical 1000/h)"},
      {"--crit over the file", {"--thresholds", crit_file, "--crit", "symbol_errors=-"}, 0, ""},
      {"--warn over the file",
       {"--thresholds", warn_file, "--warn", "symbol_errors=100000/min"},
       0,
       ""},
  };

  std::vector<std::unique_ptr<StateDir>> states;
  auto args = [&](std::size_t i) {
    std::vector<std::string> a{"--state-dir", states[i]->path(), "-n", "leaf01", "-p", "10", "-v"};
    a.insert(a.end(), variants[i].options.begin(), variants[i].options.end());
    return a;
  };
  for (std::size_t i = 0; i < variants.size(); ++i) {
    states.push_back(std::make_unique<StateDir>("thresholds"));
    const ProcessRun baseline = live.run("check_ib_port", args(i));
    INFO(variants[i].what << ": " << baseline.out);
    REQUIRE(baseline.exit_code == 0);
  }
  live.console("PerformanceSet \"leaf01\"[10] PortCounters.SymbolErrorCounter=600");
  std::this_thread::sleep_for(std::chrono::milliseconds(1100));

  for (std::size_t i = 0; i < variants.size(); ++i) {
    const ProcessRun run = live.run("check_ib_port", args(i));
    INFO(variants[i].what << ": " << run.out);
    CHECK(run.exit_code == variants[i].exit_code);
    if (!variants[i].shown.empty()) CHECK(run.has(variants[i].shown));
    if (variants[i].exit_code == 0) CHECK_FALSE(run.has("[WARNING]"));
    if (variants[i].exit_code == 0) CHECK_FALSE(run.has("[CRITICAL]"));
    const auto rate = perf_value(run, "symbol_errors");
    REQUIRE(rate);
    CHECK(*rate > 25);
    CHECK(*rate < 600);
  }
}

TEST_CASE("check_ib_port refuses a malformed threshold with UNKNOWN") {
  IBPM_REQUIRE_SIMULATOR();
  LiveFabric live = LiveFabric::start();
  StateDir state("bad-threshold");
  const ProcessRun unit = live.run("check_ib_port", {"--state-dir", state.path(), "-n", "leaf01",
                                                     "-p", "1", "--warn", "symbol_errors=10/d"});
  CHECK(unit.exit_code == 3);
  CHECK(unit.first_line().rfind("IB PORT UNKNOWN", 0) == 0);
  CHECK(unit.has("10/d"));
  const ProcessRun percent = live.run("check_ib_port", {"--state-dir", state.path(), "-n", "leaf01",
                                                        "-p", "1", "--crit", "xmit_util=90/h"});
  CHECK(percent.exit_code == 3);
  CHECK(percent.has("xmit_util"));
}
