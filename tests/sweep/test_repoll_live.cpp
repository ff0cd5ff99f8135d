// SPDX-License-Identifier: MIT
// check_ib_fabric --node, the re-poll ibpm-events runs for the switch a trap names, on a live
// simulated fat tree: a link it finds newly down also has the switch at the link's far end read
// in the same run (a trap may come from one end only), so both switches' passive results say the
// link is down; a link that was down already costs no second switch.
#include <catch2/catch.hpp>
#include <filesystem>
#include <string>
#include <vector>

#include "support/check_output.hpp"
#include "support/live_fabric.hpp"
#include "support/simulator.hpp"
#include "support/text_files.hpp"

using namespace ibpm::test;
namespace fs = std::filesystem;

namespace repoll_live_test {

// Every result block of the spool's files: "host_name=..." ... up to the next block.
std::vector<std::string> spool_blocks(const fs::path& spool) {
  std::vector<std::string> blocks;
  static const std::string marker = "### Nagios Service Check Result ###";
  for (const auto& entry : fs::directory_iterator(spool)) {
    const std::string name = entry.path().filename().string();
    if (name.ends_with(".ok") || name.front() == '.') continue;
    const std::string text = read_text(entry.path());
    for (auto at = text.find(marker); at != std::string::npos;) {
      const auto next = text.find(marker, at + marker.size());
      blocks.push_back(text.substr(at, next == std::string::npos ? next : next - at));
      at = next;
    }
  }
  return blocks;
}

// The block of `host`'s result, empty when there is none.
std::string block_of(const std::vector<std::string>& blocks, const std::string& host) {
  for (const std::string& block : blocks)
    if (block.find("\nhost_name=" + host + "\n") != std::string::npos) return block;
  return "";
}

}  // namespace repoll_live_test

using namespace repoll_live_test;

TEST_CASE("A re-poll that finds a link down reads the switch at its far end too") {
  IBPM_REQUIRE_SIMULATOR();
  LiveFabric live = LiveFabric::start();
  StateDir state("repoll-far-end");
  const fs::path spool = fs::path(state.path()) / "spool";
  fs::create_directories(spool);
  const std::vector<std::string> common{"--state-dir", state.path(), "--no-syslog"};
  REQUIRE(live.run("check_ib_fabric", common).exit_code == 0);  // the topology and the samples
  const auto repoll = [&](const std::string& node) {
    fs::remove_all(spool);
    fs::create_directories(spool);
    std::vector<std::string> args = common;
    for (const char* more : {"--node", node.c_str(), "--nagios-spool", spool.c_str()})
      args.push_back(more);
    return live.run("check_ib_fabric", args);
  };
  {
    const ProcessRun healthy = repoll("leaf03");
    INFO(healthy.out << healthy.err);
    CHECK(healthy.exit_code == 0);
    CHECK(healthy.first_line().find(" 12 ports polled") != std::string::npos);
  }

  const std::string far_end = live.peer_name("leaf03", 8);  // "spine02[3]"
  const std::string spine = far_end.substr(0, far_end.find('['));
  ConsoleUndo relink(live, "ReLink \"leaf03\"[8]");
  live.console("Unlink \"leaf03\"[8]");
  const ProcessRun down = repoll("leaf03");
  INFO(down.out << down.err);
  CHECK(down.exit_code == 2);
  CHECK(down.first_line().find(" 24 ports polled") != std::string::npos);  // leaf03's and spine's
  const std::vector<std::string> blocks = spool_blocks(spool);
  const std::string leaf = block_of(blocks, "leaf03");
  const std::string far = block_of(blocks, spine);
  INFO(leaf << "\n" << far);
  CHECK(leaf.find("\nreturn_code=2\n") != std::string::npos);
  CHECK(leaf.find("leaf03[8] <-> " + far_end) != std::string::npos);
  CHECK(far.find("\nreturn_code=2\n") != std::string::npos);
  CHECK(far.find(far_end + " <-> leaf03[8]") != std::string::npos);
  CHECK(blocks.size() == 2);

  // Still down: the far end said so already, and is not read again.
  const ProcessRun again = repoll("leaf03");
  INFO(again.out);
  CHECK(again.exit_code == 2);
  CHECK(again.first_line().find(" 12 ports polled") != std::string::npos);
  CHECK(block_of(spool_blocks(spool), spine).empty());
}

namespace repoll_live_test {

// The value of perfdata `label` in the check's output; -1 when absent.
double perfdata_value(const std::string& out, const std::string& label) {
  const auto at = out.find(" " + label + "=");
  if (at == std::string::npos) return -1;
  return std::stod(out.substr(at + label.size() + 2));
}

}  // namespace repoll_live_test

TEST_CASE("A re-poll reads every port's PortInfo and the counters of changed links only") {
  IBPM_REQUIRE_SIMULATOR();
  LiveFabric live = LiveFabric::start();
  StateDir state("repoll-port-info-first");
  const std::vector<std::string> common{"--state-dir", state.path(), "--no-syslog", "-v"};
  // Two sweeps: every port's PortInfo and reported state in the sweeps' record.
  REQUIRE(live.run("check_ib_fabric", common).exit_code == 0);
  REQUIRE(live.run("check_ib_fabric", common).exit_code == 0);
  const auto repoll = [&](std::vector<std::string> more) {
    std::vector<std::string> args = common;
    args.insert(args.end(), more.begin(), more.end());
    return live.run("check_ib_fabric", args);
  };
  // Nothing changed: one PortInfo a port and the switch's port 0, NodeInfo and NodeDescription;
  // no counter read, every port OK as reported.
  const ProcessRun quiet = repoll({"--node", "leaf03"});
  INFO(quiet.out << quiet.err);
  CHECK(quiet.exit_code == 0);
  CHECK(quiet.first_line().find(" 12 ports polled") != std::string::npos);
  CHECK(quiet.first_line().find("collecting baseline") == std::string::npos);
  CHECK(perfdata_value(quiet.out, "mads") == 12 + 1 + 2);
  // --all-counters: every port's counters too (two MADs a port on ibsim), as before.
  const ProcessRun all = repoll({"--node", "leaf03", "--all-counters"});
  INFO(all.out);
  CHECK(all.exit_code == 0);
  CHECK(perfdata_value(all.out, "mads") >= 12 * 3);

  // A link down: its two ends' counters are read (the far end's switch read too), every other
  // port carried. At most two MADs a port read, where all counters cost three.
  ConsoleUndo relink(live, "ReLink \"leaf03\"[8]");
  live.console("Unlink \"leaf03\"[8]");
  const ProcessRun down = repoll({"--node", "leaf03"});
  INFO(down.out);
  CHECK(down.exit_code == 2);
  CHECK(down.first_line().find(" 24 ports polled") != std::string::npos);
  CHECK(down.out.find("leaf03[8] <-> ") != std::string::npos);
  CHECK(down.out.find("link Down") != std::string::npos);
  const double mads = perfdata_value(down.out, "mads");
  WARN("re-poll of a link down on leaf03 and its far end: " << mads << " MADs for 24 ports");
  CHECK(mads > 24);
  CHECK(mads <= 2 * 24);

  // Linked again (no SM runs here to make it Active): its link changed again, so it is read
  // and judged as it is now, not carried as Down.
  live.console("ReLink \"leaf03\"[8]");
  const ProcessRun up = repoll({"--node", "leaf03"});
  INFO(up.out);
  CHECK(up.first_line().find(" 12 ports polled") != std::string::npos);
  CHECK(up.out.find("link Initialize") != std::string::npos);
  CHECK(up.out.find("link Down") == std::string::npos);
  CHECK(perfdata_value(up.out, "mads") <= 2 * 12);
}
