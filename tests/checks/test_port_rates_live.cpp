// SPDX-License-Identifier: MIT
// check_ib_port rates against a live fabric: exact rates from the sample times in the RRD, the
// states the default thresholds give, saturated counters as lower bounds, and counters reset by
// someone else counted from zero.
#include <catch2/catch.hpp>

#include "counters/counter.hpp"
#include "support/check_output.hpp"
#include "support/live_fabric.hpp"
#include "support/rrd_files.hpp"
#include "support/simulator.hpp"

using namespace ibpm::test;

namespace {

std::vector<std::string> port_args(const StateDir& state, int port) {
  return {"--state-dir", state.path(), "-n", "leaf01", "-p", std::to_string(port), "-v"};
}

std::string set_counter(int port, const std::string& field, const std::string& value) {
  return "PerformanceSet \"leaf01\"[" + std::to_string(port) + "] " + field + "=" + value;
}

// The check's rate against delta / (t2 - t1), the times as stored: exact to 1e-6; and within
// what a millisecond of rounding in one of the times can make (to tell the two failures apart).
void check_rate(double reported, double delta, double t1, double t2) {
  const double expected = delta / (t2 - t1);
  INFO("reported " << reported << ", expected " << delta << " / (" << std::to_string(t2) << " - "
                   << std::to_string(t1) << ") = " << expected);
  CHECK(relative_difference(reported, expected) <= 0.0011 / (t2 - t1) + 1e-6);
  CHECK(relative_difference(reported, expected) <= 1e-6);
}

}  // namespace

TEST_CASE("check_ib_port computes exact rates from the sample times it stored") {
  IBPM_REQUIRE_SIMULATOR();
  LiveFabric live = LiveFabric::start();
  StateDir state("exact");
  const int port = 7;  // leaf01[7] <-> spine01[1]

  const ProcessRun first = live.run("check_ib_port", port_args(state, port));
  INFO(first.out);
  CHECK(first.exit_code == 0);
  CHECK(first.first_line().rfind("IB PORT OK - ", 0) == 0);
  CHECK(first.has("collecting baseline"));
  const std::string rrd = state.port_rrd(live, "leaf01", port);
  const double t1 = sample_time(rrd);
  REQUIRE(last_ds(rrd, "symbol_errors") == "0");
  const std::uint64_t xmit1 = std::stoull(last_ds(rrd, "xmit_data"));

  const std::uint64_t words = 1'000'000'000'000;
  live.console(set_counter(port, "PortCounters.SymbolErrorCounter", "50"));
  live.console(
      set_counter(port, "PortCountersExtended.PortXmitData", std::to_string(xmit1 + words)));

  const ProcessRun second = live.run("check_ib_port", port_args(state, port));
  INFO(second.out);
  CHECK(second.exit_code == 2);
  CHECK(second.first_line().rfind("IB PORT CRITICAL - leaf01[7] <-> spine01[1]", 0) == 0);
  CHECK(second.has("[CRITICAL] symbol_errors"));
  const double t2 = sample_time(rrd);
  REQUIRE(t2 > t1);
  const std::uint64_t xmit2 = std::stoull(last_ds(rrd, "xmit_data"));
  REQUIRE(xmit2 >= xmit1 + words);
  CHECK(xmit2 - xmit1 - words < 1'000'000);  // MAD traffic on the way is small

  const auto symbols = perf_value(second, "symbol_errors");
  REQUIRE(symbols);
  check_rate(*symbols, 50, t1, t2);
  const auto xmit = perf_value(second, "xmit_data");  // octets per second
  REQUIRE(xmit);
  check_rate(*xmit, 4.0 * static_cast<double>(xmit2 - xmit1), t1, t2);
  const auto util = perf_value(second, "xmit_util");
  REQUIRE(util);
  check_rate(*util, static_cast<double>(xmit2 - xmit1) * 32 / 200e9 * 100, t1, t2);

  const ProcessRun third = live.run("check_ib_port", port_args(state, port));
  INFO(third.out);
  CHECK(third.exit_code == 0);
  CHECK(third.first_line().rfind("IB PORT OK - ", 0) == 0);
  for (const ibpm::counters::CounterSpec& s : ibpm::counters::counter_specs()) {
    if (!s.error) continue;
    const auto rate = perf_value(third, std::string(s.key));
    REQUIRE(rate);
    CHECK(*rate == 0);
  }
}

TEST_CASE("check_ib_port shows a saturated counter as a lower bound") {
  IBPM_REQUIRE_SIMULATOR();
  LiveFabric live = LiveFabric::start();
  StateDir state("saturated");
  const int port = 8;
  REQUIRE(live.run("check_ib_port", port_args(state, port)).exit_code == 0);
  const std::string rrd = state.port_rrd(live, "leaf01", port);
  const double t1 = sample_time(rrd);

  live.console(set_counter(port, "PortCounters.SymbolErrorCounter", "65535"));
  const ProcessRun run = live.run("check_ib_port", port_args(state, port));
  INFO(run.out);
  CHECK(run.exit_code == 2);
  CHECK(run.first_line().rfind("IB PORT CRITICAL", 0) == 0);
  CHECK(run.has("symbol_errors >= "));
  CHECK(run.has("saturated"));
  const double t2 = sample_time(rrd);
  const auto symbols = perf_value(run, "symbol_errors");
  REQUIRE(symbols);
  CHECK(relative_difference(*symbols, 65535 / (t2 - t1)) <= 0.0011 / (t2 - t1) + 1e-6);
  const auto saturated = std::stoul(last_ds(rrd, "saturated"));
  CHECK((saturated & ibpm::counters::counter_bit(ibpm::counters::Counter::symbol_errors)) != 0);
  CHECK(last_ds(rrd, "symbol_errors") == "U");  // RRD makes no rate of a sticky maximum
}

TEST_CASE("check_ib_port counts a counter reset by someone else from zero") {
  IBPM_REQUIRE_SIMULATOR();
  LiveFabric live = LiveFabric::start();
  StateDir state("external-reset");
  const int port = 9;
  live.console(set_counter(port, "PortCounters.SymbolErrorCounter", "1000"));
  REQUIRE(live.run("check_ib_port", port_args(state, port)).exit_code == 0);
  const std::string rrd = state.port_rrd(live, "leaf01", port);
  REQUIRE(last_ds(rrd, "symbol_errors") == "1000");
  const double t1 = sample_time(rrd);

  live.console(set_counter(port, "PortCounters.SymbolErrorCounter", "5"));
  const ProcessRun run = live.run("check_ib_port", port_args(state, port));
  INFO(run.out);
  CHECK(run.has("reset by someone else"));
  CHECK_FALSE(run.has("symbol_errors >= "));
  const double t2 = sample_time(rrd);
  const auto symbols = perf_value(run, "symbol_errors");
  REQUIRE(symbols);
  check_rate(*symbols, 5, t1, t2);
  CHECK(last_ds(rrd, "symbol_errors") == "5");
}
