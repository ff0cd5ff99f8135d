// SPDX-License-Identifier: MIT
// check_ib_port when things go wrong: MADs lost on the way, a node that does not answer, a LID
// nobody has, a port that is down, a state file that is not an RRD.
#include <sys/stat.h>

#include <catch2/catch.hpp>
#include <fstream>
#include <iterator>
#include <map>
#include <regex>

#include "support/check_output.hpp"
#include "support/live_fabric.hpp"
#include "support/rrd_files.hpp"
#include "support/simulator.hpp"

using namespace ibpm::test;

namespace {

std::vector<std::string> port_args(const StateDir& state, const std::string& node, int port,
                                   std::vector<std::string> more = {}) {
  std::vector<std::string> args{"--state-dir", state.path(), "-n",
                                node,          "-p",         std::to_string(port)};
  args.insert(args.end(), more.begin(), more.end());
  return args;
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

}  // namespace

// `Error "leaf01"[0] 50` drops half of the round trips to the switch's management port (the
// form without a port drops at every port a MAD crosses: ~75 %). With --mad-timeout 1000 and
// --mad-retries 5 the seed's cap of timeout x retries (5 s) leaves room for 4 tries (1 s, then
// +0.5..1, +1.5..2 s and what is left), so a query is lost in 1/16 of the runs. Every run ends
// within -t; the runs that answer needed retries (-v prints the MAD counts); one that does not
// says the port is unreachable after its tries.
TEST_CASE("check_ib_port answers through half of the MADs lost by retrying") {
  IBPM_REQUIRE_SIMULATOR();
  LiveFabric live = LiveFabric::start();
  StateDir state("retries");
  REQUIRE(live.run("check_ib_port", port_args(state, "leaf01", 7)).exit_code == 0);

  live.console("Error \"leaf01\"[0] 50");
  ConsoleUndo restore(live, "Error \"leaf01\"[0] 0");
  int answered = 0;
  int retried = 0;
  for (int i = 0; i < 6; ++i) {
    const ProcessRun run =
        live.run("check_ib_port",
                 port_args(state, "leaf01", 7,
                           {"--mad-timeout", "1000", "--mad-retries", "5", "-t", "8", "-v"}));
    INFO("run " << i << " after " << run.seconds << " s: " << run.out);
    CHECK(run.seconds < 8);
    CHECK(run.exit_code >= 0);
    CHECK(run.exit_code <= 3);
    if (run.exit_code <= 2) {
      ++answered;
      const auto at = run.out.find(" sent, ");
      REQUIRE(at != std::string::npos);
      if (std::stoi(run.out.substr(at + 7)) > 0) ++retried;
      continue;
    }
    CHECK(run.first_line().rfind("IB PORT UNKNOWN - leaf01[7] <-> ", 0) == 0);
    CHECK(run.has("unreachable at LID"));
    const auto after = run.out.find("no answer after ");
    CHECK(after != std::string::npos);
    if (after != std::string::npos) CHECK(std::stoi(run.out.substr(after + 16)) >= 3);
  }
  CHECK(answered >= 4);
  CHECK(retried >= 1);
}

TEST_CASE("check_ib_port on a node that does not answer is UNKNOWN within the timeout") {
  IBPM_REQUIRE_SIMULATOR();
  LiveFabric live = LiveFabric::start();
  StateDir state("unreachable");
  REQUIRE(live.run("check_ib_port", port_args(state, "leaf01", 7)).exit_code == 0);

  live.console("Error \"leaf01\" 100");
  ConsoleUndo restore(live, "Error \"leaf01\" 0");
  const ProcessRun run = live.run("check_ib_port", port_args(state, "leaf01", 7, {"-t", "5"}));
  INFO(run.out << run.err);
  CHECK(run.exit_code == 3);
  CHECK(run.seconds < 6);
  CHECK(run.first_line().rfind("IB PORT UNKNOWN - ", 0) == 0);
}

TEST_CASE("check_ib_port with a LID no node has is UNKNOWN with a one-line reason") {
  IBPM_REQUIRE_SIMULATOR();
  LiveFabric live = LiveFabric::start();
  StateDir state("no-lid");
  const ProcessRun run = live.run("check_ib_port", port_args(state, "49000", 1, {"-t", "5"}));
  INFO(run.out);
  CHECK(run.exit_code == 3);
  CHECK(run.first_line().rfind("IB PORT UNKNOWN - ", 0) == 0);
  CHECK(run.has("49000"));
  CHECK(run.lines().size() == 1);
}

TEST_CASE("check_ib_port works again once an unreachable node answers again") {
  IBPM_REQUIRE_SIMULATOR();
  LiveFabric live = LiveFabric::start();
  StateDir state("recovery");
  REQUIRE(live.run("check_ib_port", port_args(state, "leaf02", 7)).exit_code == 0);
  REQUIRE(live.run("check_ib_port", port_args(state, "leaf03", 7)).exit_code == 0);

  live.console("Error \"leaf02\" 100");
  {
    ConsoleUndo restore(live, "Error \"leaf02\" 0");
    const ProcessRun down = live.run("check_ib_port", port_args(state, "leaf02", 7, {"-t", "5"}));
    INFO(down.out);
    CHECK(down.exit_code == 3);
    // The node is in the fabric and only silent: say so, not that there is no such node.
    CHECK(down.has("leaf02"));
    CHECK_FALSE(down.has("no node named"));
  }
  // The fabric is whole again: the same state directory must serve every node again.
  for (const std::string node : {"leaf02", "leaf03"}) {
    const ProcessRun run = live.run("check_ib_port", port_args(state, node, 7, {"-t", "5"}));
    INFO(node << ": " << run.out);
    CHECK(run.exit_code >= 0);
    CHECK(run.exit_code <= 2);
    CHECK(run.first_line().find(node + "[7] <-> ") != std::string::npos);
  }
}

TEST_CASE("check_ib_port on a port that is down is CRITICAL") {
  IBPM_REQUIRE_SIMULATOR();
  LiveFabric live = LiveFabric::start();
  StateDir state("port-down");
  REQUIRE(live.run("check_ib_port", port_args(state, "leaf01", 8)).exit_code == 0);
  const std::string cable = "leaf01[8] <-> " + live.peer_name("leaf01", 8);

  live.console("Unlink \"leaf01\"[8]");
  ConsoleUndo relink(live, "ReLink \"leaf01\"[8]");
  const ProcessRun run = live.run("check_ib_port", port_args(state, "leaf01", 8, {"-v"}));
  INFO(run.out);
  CHECK(run.exit_code == 2);
  CHECK(run.first_line().rfind("IB PORT CRITICAL - " + cable + ": port Down", 0) == 0);
}

TEST_CASE("check_ib_port with a corrupt state file is UNKNOWN and leaves the file alone") {
  IBPM_REQUIRE_SIMULATOR();
  LiveFabric live = LiveFabric::start();
  StateDir state("corrupt");
  REQUIRE(live.run("check_ib_port", port_args(state, "leaf01", 12)).exit_code == 0);
  const std::string rrd = state.port_rrd(live, "leaf01", 12);
  const std::string garbage = "this is not an RRD file\n";
  std::ofstream(rrd, std::ios::binary | std::ios::trunc) << garbage;
  struct stat before {};
  REQUIRE(::stat(rrd.c_str(), &before) == 0);

  for (int i = 0; i < 2; ++i) {
    const ProcessRun run = live.run("check_ib_port", port_args(state, "leaf01", 12, {"-v"}));
    INFO(run.out);
    CHECK(run.exit_code == 3);
    CHECK(run.first_line().rfind("IB PORT UNKNOWN - ", 0) == 0);
    CHECK(run.first_line().find(rrd) != std::string::npos);
  }
  struct stat after {};
  REQUIRE(::stat(rrd.c_str(), &after) == 0);
  CHECK(after.st_ino == before.st_ino);
  CHECK(read_file(rrd) == garbage);
}

// The saved topology gives leaf01 leaf02's LID and leaf02 leaf01's: the poll answers as the other
// node, the check discovers the fabric again, polls once more and saves the right LIDs.
TEST_CASE("check_ib_port with a stale saved topology discovers again and answers") {
  IBPM_REQUIRE_SIMULATOR();
  LiveFabric live = LiveFabric::start();
  StateDir state("stale-topology");
  REQUIRE(live.run("check_ib_port", port_args(state, "leaf01", 7)).exit_code == 0);

  const std::string file = state.path() + "/topology.ibnetdiscover";
  const std::string saved = read_file(file);
  REQUIRE_FALSE(saved.empty());
  const std::regex lid_of(R"re("(leaf0[12])"(.*) lid (\d+))re");
  const auto lids_in = [&](const std::string& text) {
    std::map<std::string, std::string> lids;
    for (auto it = std::sregex_iterator(text.begin(), text.end(), lid_of);
         it != std::sregex_iterator(); ++it)
      lids[(*it)[1]] = (*it)[3];
    return lids;
  };
  std::map<std::string, std::string> lids = lids_in(saved);
  REQUIRE(lids.size() == 2);
  REQUIRE(lids["leaf01"] != lids["leaf02"]);
  const std::string swapped = std::regex_replace(saved, lid_of, "\"$1\"$2 lid SWAP_$1");
  std::ofstream(file, std::ios::binary | std::ios::trunc)
      << std::regex_replace(std::regex_replace(swapped, std::regex("SWAP_leaf01"), lids["leaf02"]),
                            std::regex("SWAP_leaf02"), lids["leaf01"]);

  const ProcessRun run = live.run("check_ib_port", port_args(state, "leaf01", 7));
  INFO(run.out << run.err);
  CHECK(run.exit_code == 0);
  CHECK(run.first_line().find("leaf01[7]") != std::string::npos);
  CHECK(run.has("topology was stale: discovered again"));
  CHECK(lids_in(read_file(file)) == lids);
}
