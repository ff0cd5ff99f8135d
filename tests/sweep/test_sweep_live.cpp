// SPDX-License-Identifier: MIT
// check_ib_fabric on a live simulated fat tree: every cabled port polled once (checked against
// the net file), errors injected with PerformanceSet found on exactly those ports and logged
// once as events, a node whose MADs are all dropped reported unreachable while the others are
// polled, within its backoff budget.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <set>

#include "support/check_output.hpp"
#include "support/live_fabric.hpp"
#include "support/rrd_files.hpp"
#include "support/simulator.hpp"
#include "sweep/csv_table.hpp"

using namespace ibpm::test;
using ibpm::sweep::test::read_csv;

namespace {

// "leaf01[7]" for every cabled port in the net file.
std::set<std::string> net_file_ports(const LiveFabric& live) {
  std::set<std::string> ports;
  std::vector<std::string> nodes = live.tree.hosts;
  for (const auto& level : live.tree.switches)
    nodes.insert(nodes.end(), level.begin(), level.end());
  for (const std::string& node : nodes)
    for (int port : live.cabled_ports(node)) ports.insert(node + "[" + std::to_string(port) + "]");
  return ports;
}

std::vector<std::string> sweep_args(const StateDir& state, std::vector<std::string> more = {}) {
  std::vector<std::string> args{"--state-dir",
                                state.path(),
                                "--no-syslog",
                                "--events-file",
                                state.path() + "/events.log",
                                "--csv",
                                state.path() + "/samples.csv"};
  args.insert(args.end(), more.begin(), more.end());
  return args;
}

std::vector<std::string> read_lines(const std::string& path) {
  std::vector<std::string> lines;
  std::ifstream in(path);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// Long output lines of one state naming ports: "\_[CRITICAL] leaf02[3] <-> ...".
std::vector<std::string> port_lines(const ProcessRun& run, const std::string& state) {
  std::vector<std::string> found;
  for (const std::string& line : run.lines())
    if (line.rfind("\\_[" + state + "] ", 0) == 0 && line.find(" <-> ") != std::string::npos)
      found.push_back(line);
  return found;
}

}  // namespace

TEST_CASE("A full sweep polls every cabled port of the net file once and writes its RRD") {
  IBPM_REQUIRE_SIMULATOR();
  LiveFabric live = LiveFabric::start();
  StateDir state("sweep-full");
  const std::set<std::string> expected = net_file_ports(live);
  REQUIRE(expected.size() == 144);  // 36 host ports, 6 leaves x 12, 3 spines x 12

  const ProcessRun first = live.run("check_ib_fabric", sweep_args(state));
  INFO(first.out << first.err);
  CHECK(first.exit_code == 0);
  CHECK(first.first_line().rfind("IB FABRIC OK - 144 ports polled in ", 0) == 0);
  CHECK(first.first_line().find("collecting baseline") != std::string::npos);
  CHECK(perf_value(first, "ports") == 144);
  CHECK(perf_value(first, "ports_polled") == 144);
  CHECK(perf_value(first, "ports_unreachable") == 0);

  const auto table = read_csv(state.path() + "/samples.csv");
  std::multiset<std::string> polled;
  for (const auto& row : table.rows) {
    polled.insert(row.at("port_name"));
    CHECK(row.at("answered") == "1");
  }
  CHECK(polled.size() == expected.size());  // no port twice
  CHECK(std::set<std::string>(polled.begin(), polled.end()) == expected);
  for (const std::string& port :
       {std::string("leaf01[7]"), std::string("spine03[12]"), std::string("cn0036[1]")}) {
    const std::string node = port.substr(0, port.find('['));
    const int number = std::stoi(port.substr(port.find('[') + 1));
    CHECK(std::filesystem::exists(state.port_rrd(live, node, number)));
  }

  const ProcessRun second = live.run("check_ib_fabric", sweep_args(state));
  INFO(second.out);
  CHECK(second.exit_code == 0);
  CHECK(second.first_line().rfind("IB FABRIC OK - 144 ports polled in ", 0) == 0);
  CHECK(second.first_line().find(": all OK") != std::string::npos);
  CHECK(perf_value(second, "symbol_errors") == 0);
  CHECK(perf_value(second, "xmit_data").value_or(0) > 0);  // the sweep's own MADs are traffic
  CHECK(perf_value(second, "read_spread").value_or(99) <
        perf_value(second, "sweep_time").value_or(0));
  const auto both = read_csv(state.path() + "/samples.csv");
  CHECK(both.rows.size() == 2 * expected.size());  // appended, one header
  std::size_t with_rates = 0;
  for (const auto& row : both.rows) with_rates += !row.at("symbol_errors_per_s").empty();
  CHECK(with_rates == expected.size());
  CHECK(std::filesystem::exists(state.path() + "/sweep/fabric.json"));
  CHECK(read_lines(state.path() + "/events.log").empty());  // nothing changed state
}

TEST_CASE("Errors injected with PerformanceSet show on exactly those ports and are logged once") {
  IBPM_REQUIRE_SIMULATOR();
  LiveFabric live = LiveFabric::start();
  StateDir state("sweep-errors");
  const std::vector<std::string> args = sweep_args(state, {"--worst", "50"});
  REQUIRE(live.run("check_ib_fabric", args).exit_code == 0);

  live.console("PerformanceSet \"leaf02\"[3] PortCounters.SymbolErrorCounter=40");
  live.console("PerformanceSet \"spine02\"[5] PortCounters.SymbolErrorCounter=70");
  const std::string leaf_cable = "leaf02[3] <-> " + live.peer_name("leaf02", 3);
  const std::string spine_cable = "spine02[5] <-> " + live.peer_name("spine02", 5);
  const ProcessRun bad = live.run("check_ib_fabric", args);
  INFO(bad.out);
  CHECK(bad.exit_code == 2);
  CHECK(bad.first_line().rfind("IB FABRIC CRITICAL - 144 ports polled in ", 0) == 0);
  CHECK(bad.first_line().find("2 in error") != std::string::npos);
  // The worst (more errors per second) is named in the status line.
  CHECK(bad.first_line().find("worst: " + spine_cable + " symbol_errors") != std::string::npos);
  const auto critical = port_lines(bad, "CRITICAL");
  REQUIRE(critical.size() == 2);
  CHECK(critical[0].find(spine_cable + ":") != std::string::npos);
  CHECK(critical[1].find(leaf_cable + ":") != std::string::npos);
  CHECK(port_lines(bad, "WARNING").empty());
  CHECK(perf_value(bad, "ports_error") == 2);
  CHECK(perf_value(bad, "symbol_errors").value_or(0) > 0);

  const auto events = read_lines(state.path() + "/events.log");
  REQUIRE(events.size() == 2);
  std::size_t named = 0;
  for (const std::string& line : events) {
    CHECK(line.find("OK -> CRITICAL") != std::string::npos);
    named +=
        line.find(leaf_cable) != std::string::npos || line.find(spine_cable) != std::string::npos;
  }
  CHECK(named == 2);

  // No new errors: both recover, and that is logged once too.
  const ProcessRun recovered = live.run("check_ib_fabric", args);
  INFO(recovered.out);
  CHECK(recovered.exit_code == 0);
  const auto after = read_lines(state.path() + "/events.log");
  REQUIRE(after.size() == 4);
  CHECK(after[2].find("CRITICAL -> OK") != std::string::npos);
  CHECK(after[3].find("CRITICAL -> OK") != std::string::npos);
  REQUIRE(live.run("check_ib_fabric", args).exit_code == 0);
  CHECK(read_lines(state.path() + "/events.log").size() == 4);
}

TEST_CASE("A node whose MADs are all dropped is unreachable and every other port is polled") {
  IBPM_REQUIRE_SIMULATOR();
  LiveFabric live = LiveFabric::start();
  StateDir state("sweep-dead");
  // Budget of one query: 300 ms x 2 tries at most.
  const std::vector<std::string> args =
      sweep_args(state, {"--mad-timeout", "300", "--mad-retries", "2"});
  REQUIRE(live.run("check_ib_fabric", args).exit_code == 0);

  live.console("Error \"cn0005\" 100");
  ConsoleUndo restore(live, "Error \"cn0005\" 0");
  const ProcessRun run = live.run("check_ib_fabric", args);
  INFO(run.out << run.err);
  CHECK(run.exit_code == 1);  // --unreachable warning
  CHECK(run.first_line().find("1 unreachable (1 node)") != std::string::npos);
  CHECK(perf_value(run, "ports_polled") == 143);
  CHECK(perf_value(run, "ports_unreachable") == 1);
  CHECK(perf_value(run, "nodes_unreachable") == 1);
  bool named = false;
  for (const std::string& line : run.lines())
    named |= line.rfind("\\_[WARNING] cn0005 unreachable at LID ", 0) == 0;
  CHECK(named);
  // The silent node costs its backoff budget once (0.6 s), not once per query.
  CHECK(perf_value(run, "sweep_time").value_or(99) < 1.5);
  // The other 143 ports got their second sample: rates, no baseline.
  const auto table = read_csv(state.path() + "/samples.csv");
  std::size_t second_samples = 0;
  for (const auto& row : table.rows)
    second_samples += row.at("answered") == "1" && !row.at("symbol_errors_per_s").empty();
  CHECK(second_samples == 143);
}

TEST_CASE("A port whose 32-bit PortXmitWait sits at its maximum is named in the long output") {
  IBPM_REQUIRE_SIMULATOR();
  LiveFabric live = LiveFabric::start();
  StateDir state("sweep-saturated-wait");
  const std::vector<std::string> args = sweep_args(state, {"--worst", "50"});
  REQUIRE(live.run("check_ib_fabric", args).exit_code == 0);
  const std::string cable = "leaf02[3] <-> " + live.peer_name("leaf02", 3);

  // ibsim has the 32-bit PortXmitWait only: full, as after 0.69 s of waiting on 4x HDR.
  live.console("PerformanceSet \"leaf02\"[3] PortCounters.PortXmitWait=4294967295");
  const ProcessRun filled = live.run("check_ib_fabric", args);
  INFO(filled.out);
  CHECK(filled.first_line().find("1 saturated") != std::string::npos);
  CHECK(filled.has(cable + ":"));

  // The sweeps after: no change to rate, the port OK, and still named, with what is known.
  const ProcessRun stuck = live.run("check_ib_fabric", args);
  INFO(stuck.out);
  CHECK(stuck.exit_code == 0);
  CHECK(stuck.first_line().find("1 saturated") != std::string::npos);
  CHECK(stuck.has("\\_[OK] " + cable +
                  ": saturated counters (rates are lower bounds): xmit_wait; xmit_wait at its "
                  "maximum: full before the last "));
  CHECK(stuck.has("counted again once cleared (--reset-counters)"));

  // --reset-counters clears it: said once, then measured again and no longer named.
  const ProcessRun cleared =
      live.run("check_ib_fabric", sweep_args(state, {"--worst", "50", "--reset-counters", "75"}));
  INFO(cleared.out);
  CHECK(cleared.has(cable + ": saturated counters"));
  CHECK(cleared.has("cleared by this run, counted again from now"));
  const ProcessRun measured = live.run("check_ib_fabric", args);
  INFO(measured.out);
  CHECK(measured.first_line().find("1 saturated") == std::string::npos);
  CHECK_FALSE(measured.has(cable + ": saturated counters"));
}
