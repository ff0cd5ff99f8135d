// SPDX-License-Identifier: MIT
// check_ib_node on a leaf of a live fabric: one line per cabled port, and an error on one port
// makes exactly that port CRITICAL, named with both cable ends in the summary.
#include <catch2/catch.hpp>
#include <map>
#include <optional>

#include "support/check_output.hpp"
#include "support/json_reader.hpp"
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
    const std::string cable =
        "leaf01[" + std::to_string(port) + "] <-> " + live.peer_name("leaf01", port) + ":";
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

namespace {

// The subchecks of a JSON check that are ports ("leaf01[9] <-> spine02[1]: ..."), by port number.
std::map<int, const Json*> json_ports(const Json& check) {
  std::map<int, const Json*> ports;
  for (const Json& subcheck : check["subchecks"].items) {
    const std::string& output = subcheck["output"].string;
    if (output.rfind("leaf01[", 0) == 0 && output.find(" <-> ") != std::string::npos)
      ports[std::stoi(output.substr(7))] = &subcheck;
  }
  return ports;
}

// The value of the perfdata item LABEL anywhere in the JSON check tree.
std::optional<double> json_perf_value(const Json& node, const std::string& label) {
  for (const Json& item : node["perfdata"].items)
    if (item["label"].string == label) return item["value"].number;
  for (const Json& subcheck : node["subchecks"].items)
    if (const auto value = json_perf_value(subcheck, label)) return value;
  return std::nullopt;
}

}  // namespace

TEST_CASE("check_ib_node --output-format json: each port's state and perfdata in the tree") {
  IBPM_REQUIRE_SIMULATOR();
  LiveFabric live = LiveFabric::start();
  StateDir state("node-json");
  const std::vector<std::string> args{"--state-dir", state.path(),      "-n",
                                      "leaf01",      "--output-format", "json"};
  const ProcessRun first = live.run("check_ib_node", args);
  INFO(first.out << first.err);
  REQUIRE(first.exit_code == 0);
  const Json baseline = parse_json(first.out);
  CHECK(baseline["prefix"].string == "IB NODE");
  CHECK(baseline["state"].string == "OK");
  CHECK(baseline["exit_code"].number == 0);
  CHECK(json_ports(baseline).size() == 12);

  live.console("PerformanceSet \"leaf01\"[9] PortCounters.SymbolErrorCounter=50");
  const ProcessRun second = live.run("check_ib_node", args);
  INFO(second.out << second.err);
  CHECK(second.exit_code == 2);
  const Json check = parse_json(second.out);
  CHECK(check["state"].string == "CRITICAL");
  CHECK(check["exit_code"].number == 2);
  CHECK_THAT(check["summary"].string,
             Catch::Contains("leaf01[9] <-> " + live.peer_name("leaf01", 9)));
  const auto ports = json_ports(check);
  REQUIRE(ports.size() == 12);
  for (const auto& [port, subcheck] : ports) {
    INFO("port " << port << ": " << (*subcheck)["output"].string);
    CHECK((*subcheck)["state"].string == (port == 9 ? "CRITICAL" : "OK"));
  }
  CHECK(json_perf_value(check, "p9_symbol_errors").value_or(0) > 0);
  CHECK(json_perf_value(check, "p8_symbol_errors").value_or(-1) == 0);
}
