// SPDX-License-Identifier: MIT
// What the re-poll ibpm-events runs for a trap (check_ib_fabric --node) leaves besides the
// passive results, on a live simulated fat tree: the OpenMetrics file with the ports it read
// replaced (a cable unlinked is down there within the re-poll, the other ports as the sweep wrote
// them), and the saved topology with a node's description refreshed (trap 144), said once.
#include <catch2/catch.hpp>
#include <filesystem>
#include <string>
#include <vector>

#include "support/live_fabric.hpp"
#include "support/process.hpp"
#include "support/simulator.hpp"
#include "support/temp_dir.hpp"
#include "support/text_files.hpp"

using namespace ibpm::test;

namespace repoll_outputs_test {

// The sample lines of the series `name` of port `port` of the node `guid` ("0x" and 16 digits).
std::vector<std::string> series_of(const std::string& text, const std::string& name,
                                   const std::string& guid, int port) {
  std::vector<std::string> lines;
  const std::string head =
      name + "{node_guid=\"" + guid + "\",port=\"" + std::to_string(port) + "\",";
  for (auto at = text.find(head); at != std::string::npos; at = text.find(head, at + 1))
    if (at == 0 || text[at - 1] == '\n') lines.push_back(text.substr(at, text.find('\n', at) - at));
  return lines;
}

// "0x0000000000200005" as the exposition writes a GUID that ibnetdiscover gives as "0x200005".
std::string padded(const std::string& guid) {
  std::string digits = guid.substr(2);
  return "0x" + std::string(16 - digits.size(), '0') + digits;
}

std::size_t occurrences(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

}  // namespace repoll_outputs_test

using namespace repoll_outputs_test;

TEST_CASE("a re-poll puts the ports it read into the sweep's OpenMetrics file") {
  IBPM_REQUIRE_SIMULATOR();
  LiveFabric live = LiveFabric::start();
  TempDir work("repoll-openmetrics");
  const std::string prom = work / "ibpm.prom";
  const std::vector<std::string> sweep{
      "--state-dir", work / "state", "--no-syslog", "--openmetrics", prom, "-t", "20"};
  REQUIRE(live.run("check_ib_fabric", sweep).exit_code == 0);
  const std::string leaf = padded(live.guid_of("leaf04"));
  const std::string other = padded(live.guid_of("leaf05"));
  const std::string before = read_text(prom);
  REQUIRE(series_of(before, "ibpm_port_link_state", leaf, 9) ==
          std::vector<std::string>{series_of(before, "ibpm_port_link_state", leaf, 9).front()});
  CHECK(series_of(before, "ibpm_port_link_state", leaf, 9).front().ends_with("} 4"));

  ConsoleUndo relink(live, "ReLink \"leaf04\"[9]");
  live.console("Unlink \"leaf04\"[9]");
  std::vector<std::string> repoll = sweep;
  repoll.insert(repoll.end(), {"--node", "leaf04"});
  const ProcessRun down = live.run("check_ib_fabric", repoll);
  INFO(down.out << down.err);
  CHECK(down.exit_code == 2);
  const std::string after = read_text(prom);
  // leaf04[9]: Down, CRITICAL, one line a series; the far end (read in the same run) too.
  const std::vector<std::string> state = series_of(after, "ibpm_port_link_state", leaf, 9);
  REQUIRE(state.size() == 1);
  CHECK(state.front().ends_with("} 1"));
  const std::vector<std::string> judged = series_of(after, "ibpm_port_check_state", leaf, 9);
  REQUIRE(judged.size() == 1);
  CHECK(judged.front().ends_with("} 2"));
  // Another leaf's series and the sweep's figures as the sweep wrote them.
  for (const char* name :
       {"ibpm_port_link_state", "ibpm_port_symbol_errors_total", "ibpm_port_check_state"})
    CHECK(series_of(after, name, other, 1) == series_of(before, name, other, 1));
  const auto figures = [](const std::string& text) {
    return text.substr(text.find("ibpm_sweep_start_time_seconds{"));
  };
  CHECK(figures(after).substr(0, 80) == figures(before).substr(0, 80));
  CHECK(after.find("scope=\"nodes\"") == std::string::npos);
  // Linked again (no SM runs here to make it Active: it stays Init), at the next re-poll.
  live.console("ReLink \"leaf04\"[9]");
  const ProcessRun up = live.run("check_ib_fabric", repoll);
  INFO(up.out);
  const std::string back = read_text(prom);
  const std::vector<std::string> again = series_of(back, "ibpm_port_link_state", leaf, 9);
  REQUIRE(again.size() == 1);
  CHECK(again.front().ends_with("} 2"));
  CHECK(occurrences(back, "# TYPE ibpm_port_link_state ") == 1);
}

TEST_CASE("a re-poll refreshes a node's description in the saved topology, said once") {
  // ibsim has no command that changes a NodeDescription (it sends trap 144 for a capability
  // change only): the saved topology is given the description the switch had before instead,
  // and the re-poll a trap 144 asks for (its LID, --node) finds the one it has now.
  IBPM_REQUIRE_SIMULATOR();
  LiveFabric live = LiveFabric::start();
  TempDir work("repoll-describe");
  const std::string state = work / "state";
  const std::string topology = state + "/topology.ibnetdiscover";
  const std::string events = work / "events.log";
  const std::vector<std::string> sweep{"--state-dir", state, "--no-syslog", "--events-file",
                                       events,        "-t",  "20"};
  REQUIRE(live.run("check_ib_fabric", sweep).exit_code == 0);
  std::string saved = read_text(topology);
  REQUIRE(occurrences(saved, "\"leaf02\"") > 1);
  for (auto at = saved.find("\"leaf02\""); at != std::string::npos;
       at = saved.find("\"leaf02\"", at + 1))
    saved.replace(at, 8, "\"old-leaf02\"");
  write_text(topology, saved);

  const std::string guid = live.guid_of("leaf02");
  std::vector<std::string> repoll = sweep;
  repoll.insert(repoll.end(), {"--node", guid});
  const ProcessRun first = live.run("check_ib_fabric", repoll);
  INFO(first.out << first.err);
  CHECK(first.exit_code == 0);
  CHECK(first.out.find("node changed, the saved topology updated: leaf02 (0x") !=
        std::string::npos);
  CHECK(first.out.find("): description \"old-leaf02\" -> \"leaf02\"") != std::string::npos);
  const std::string refreshed = read_text(topology);
  CHECK(refreshed.find("old-leaf02") == std::string::npos);
  CHECK(occurrences(refreshed, "\"leaf02\"") == occurrences(saved, "\"old-leaf02\""));
  INFO(read_text(events));
  CHECK(occurrences(read_text(events), " OK node changed, the saved topology updated: leaf02") ==
        1);
  // The next re-poll finds nothing to change: said once.
  const ProcessRun second = live.run("check_ib_fabric", repoll);
  CHECK(second.exit_code == 0);
  CHECK(second.out.find("node changed") == std::string::npos);
  CHECK(occurrences(read_text(events), "node changed") == 1);
  CHECK(read_text(topology) == refreshed);
}
