// check_ib_node on a leaf of a live fabric: one line per cabled port, and an error on one port
// makes exactly that port CRITICAL, named with both cable ends in the summary.
#include <catch2/catch.hpp>

#include "support/check_output.hpp"
#include "support/live_fabric.hpp"
#include "support/rrd_files.hpp"
#include "support/simulator.hpp"

using namespace ibpm::test;

namespace {

// Top-level long output lines (one per port): "\_[STATE] leaf01[N] <-> ...".
std::vector<std::string> port_lines(const ProcessRun& run) {
  std::vector<std::string> result;
  for (const std::string& line : run.lines())
    if (line.rfind("\\_[", 0) == 0 && line.find(" <-> ") != std::string::npos)
      result.push_back(line);
  return result;
}

}  // namespace

TEST_CASE("check_ib_node names the one port with errors by both cable ends") {
  IBPM_REQUIRE_SIMULATOR();
  LiveFabric live = LiveFabric::start();
  StateDir state("node");
  const std::vector<std::string> args{"--state-dir", state.path(), "-n", "leaf01", "-v"};
  const std::vector<int> cabled = live.cabled_ports("leaf01");
  REQUIRE(cabled.size() == 12);

  const ProcessRun first = live.run("check_ib_node", args);
  INFO(first.out);
  CHECK(first.exit_code == 0);
  CHECK(first.first_line().rfind("IB NODE OK - leaf01: 12 ports", 0) == 0);
  const auto baseline_lines = port_lines(first);
  CHECK(baseline_lines.size() == cabled.size());
  for (int port : cabled) {
    const std::string cable = "leaf01[" + std::to_string(port) + "] <-> " +
                              live.peer_name("leaf01", port) + ":";
    bool found = false;
    for (const std::string& line : baseline_lines) found |= line.find(cable) != std::string::npos;
    CHECK(found);
  }

  const int bad = 9;
  const std::string cable = "leaf01[9] <-> " + live.peer_name("leaf01", bad);
  live.console("PerformanceSet \"leaf01\"[9] PortCounters.SymbolErrorCounter=50");
  const ProcessRun second = live.run("check_ib_node", args);
  INFO(second.out);
  CHECK(second.exit_code == 2);
  CHECK(second.first_line().rfind("IB NODE CRITICAL - leaf01: 12 ports, 1 not OK", 0) == 0);
  CHECK(second.first_line().find(cable) != std::string::npos);
  CHECK(second.first_line().find("symbol_errors") != std::string::npos);
  const auto lines = port_lines(second);
  CHECK(lines.size() == cabled.size());
  std::size_t critical = 0, ok = 0;
  for (const std::string& line : lines) {
    if (line.rfind("\\_[CRITICAL] " + cable + ":", 0) == 0) ++critical;
    if (line.rfind("\\_[OK] leaf01[", 0) == 0) ++ok;
  }
  CHECK(critical == 1);
  CHECK(ok == cabled.size() - 1);
  CHECK(perf_value(second, "p9_symbol_errors").value_or(0) > 0);
  CHECK(perf_value(second, "p8_symbol_errors").value_or(-1) == 0);
}

