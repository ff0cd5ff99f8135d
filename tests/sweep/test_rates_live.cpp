// SPDX-License-Identifier: MIT
// ibpm-rates, the console view, on a live fabric: the ports of one node with the error rate
// injected on one of them, sorted worst first, and --clear-counters clearing them on the switch
// and recording it in the port's state.
#include <catch2/catch.hpp>

#include "support/check_output.hpp"
#include "support/live_fabric.hpp"
#include "support/rrd_files.hpp"
#include "support/simulator.hpp"

using namespace ibpm::test;

TEST_CASE("ibpm-rates shows a node's ports with the injected error first and clears on request") {
  IBPM_REQUIRE_SIMULATOR();
  LiveFabric live = LiveFabric::start();
  StateDir state("rates");
  const std::vector<std::string> node{"--state-dir", state.path(), "-n", "leaf03"};
  const ProcessRun first = live.run("ibpm-rates", node);
  INFO(first.out << first.err);
  REQUIRE(first.exit_code == 0);
  CHECK(first.lines().size() == 1 + 12);  // header and leaf03's cabled ports
  CHECK(first.has("first sample"));

  live.console("PerformanceSet \"leaf03\"[8] PortCounters.SymbolErrorCounter=500");
  std::vector<std::string> sorted = node;
  sorted.insert(sorted.end(), {"--sort", "errors", "--top", "2", "--clear-counters"});
  const ProcessRun errors = live.run("ibpm-rates", sorted);
  INFO(errors.out << errors.err);
  REQUIRE(errors.exit_code == 0);
  const auto lines = errors.lines();
  REQUIRE(lines.size() == 4);  // header, two ports, the clearing note
  CHECK(lines[1].rfind("leaf03[8] <-> " + live.peer_name("leaf03", 8), 0) == 0);
  CHECK(lines[1].find("CRITICAL") != std::string::npos);
  CHECK(lines[1].find("symbol_errors") != std::string::npos);
  CHECK(lines[2].find("symbol_errors") == std::string::npos);
  CHECK(lines[3] == "cleared the error counters of 12 ports (recorded in their state)");
  const std::string rrd = state.port_rrd(live, "leaf03", 8);
  CHECK(last_ds(rrd, "symbol_errors") == "0");
  CHECK(std::stod(last_ds(rrd, "last_reset")) > now_epoch_seconds() - 60);

  // The switch's counter was cleared: the next reading shows no new errors.
  std::vector<std::string> json = node;
  json.insert(json.end(), {"--format", "json"});
  const ProcessRun after = live.run("ibpm-rates", json);
  INFO(after.out);
  CHECK(after.exit_code == 0);
  CHECK(after.has("\"name\":\"leaf03[8]\""));
  CHECK_FALSE(after.has("\"symbol_errors\":1"));
  CHECK(after.has("\"symbol_errors\":0"));
}

TEST_CASE("ibpm-rates refuses an unknown node with a one-line reason") {
  IBPM_REQUIRE_SIMULATOR();
  LiveFabric live = LiveFabric::start();
  StateDir state("rates-bad");
  const ProcessRun run = live.run("ibpm-rates", {"--state-dir", state.path(), "-n", "nosuch"});
  CHECK(run.exit_code == 1);
  CHECK(run.err.find("ibpm-rates: no node named 'nosuch'") != std::string::npos);
}
