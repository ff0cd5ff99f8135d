// SPDX-License-Identifier: MIT
// check_ib_port --reset-counters against a live fabric: an error counter past the given share of
// its maximum is cleared on the switch and the reset is recorded in the RRD; the 64-bit data
// counters of the extended agent are left alone.
#include <catch2/catch.hpp>

#include "counters/counter.hpp"
#include "support/check_output.hpp"
#include "support/live_fabric.hpp"
#include "support/rrd_files.hpp"
#include "support/simulator.hpp"

using namespace ibpm::test;
using ibpm::counters::Counter;
using ibpm::counters::counter_bit;

TEST_CASE("check_ib_port --reset-counters clears a counter close to its maximum") {
  IBPM_REQUIRE_SIMULATOR();
  LiveFabric live = LiveFabric::start();
  StateDir state("reset");
  const std::vector<std::string> args{"--state-dir", state.path(), "-n", "leaf01",
                                      "-p",          "11",         "-v"};
  std::vector<std::string> reset_args = args;
  reset_args.insert(reset_args.end(), {"--reset-counters", "75"});

  REQUIRE(live.run("check_ib_port", reset_args).exit_code == 0);
  const std::string rrd = state.port_rrd(live, "leaf01", 11);
  CHECK(last_ds(rrd, "last_reset") == "U");

  const std::uint64_t words = 1'000'000'000'000;
  live.console("PerformanceSet \"leaf01\"[11] PortCounters.SymbolErrorCounter=60000");
  live.console("PerformanceSet \"leaf01\"[11] PortCountersExtended.PortXmitData=" +
               std::to_string(words));
  const double before = now_epoch_seconds();
  const ProcessRun run = live.run("check_ib_port", reset_args);
  const double after = now_epoch_seconds();
  INFO(run.out);
  CHECK(run.exit_code == 2);  // 60000 new symbol errors: critical by the defaults
  CHECK(run.has("cleared by this run (close to their maximum): symbol_errors"));

  const double last_reset = std::stod(last_ds(rrd, "last_reset"));
  CHECK(last_reset >= before - 1);
  CHECK(last_reset <= after + 1);
  const auto mask = std::stoul(last_ds(rrd, "reset_mask"));
  CHECK((mask & counter_bit(Counter::symbol_errors)) != 0);
  CHECK((mask & ibpm::counters::kDataCounterMask) == 0);
  CHECK(last_ds(rrd, "symbol_errors") == "0");
  CHECK(std::stoull(last_ds(rrd, "xmit_data")) >= words);

  // The next run reads the switch again: the counter is small, the data counter untouched.
  const ProcessRun next = live.run("check_ib_port", args);
  INFO(next.out);
  CHECK(next.exit_code == 0);
  CHECK(next.has("last cleared by ibpm at "));
  CHECK(std::stoull(last_ds(rrd, "symbol_errors")) < 100);
  CHECK(std::stoull(last_ds(rrd, "xmit_data")) >= words);
  const auto symbols = perf_value(next, "symbol_errors");
  REQUIRE(symbols);
  CHECK(*symbols == 0);
  CHECK(std::stod(last_ds(rrd, "last_reset")) == last_reset);
}

TEST_CASE("check_ib_port --reset-counters leaves counters below the share alone") {
  IBPM_REQUIRE_SIMULATOR();
  LiveFabric live = LiveFabric::start();
  StateDir state("no-reset");
  const std::vector<std::string> args{"--state-dir", state.path(),       "-n", "leaf01", "-p", "11",
                                      "-v",          "--reset-counters", "75"};
  REQUIRE(live.run("check_ib_port", args).exit_code == 0);
  live.console("PerformanceSet \"leaf01\"[11] PortCounters.SymbolErrorCounter=49000");
  const ProcessRun run = live.run("check_ib_port", args);
  INFO(run.out);
  CHECK_FALSE(run.has("cleared by this run"));
  const std::string rrd = state.port_rrd(live, "leaf01", 11);
  CHECK(last_ds(rrd, "symbol_errors") == "49000");
  CHECK(last_ds(rrd, "last_reset") == "U");
}
