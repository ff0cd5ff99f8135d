// SPDX-License-Identifier: MIT
// A node that joins the fabric after the last discovery (trap 64 for a port the saved topology
// lacks), on a simulated fabric with OpenSM running as a daemon and loading the event plugin: a
// host cabled in with ibsim's Link command is learnt at the SA by the listener's re-poll, added
// to the saved topology (which check_ib_topology then reports as a new node, and the next sweep
// polls), and said once in the events file; no discovery runs.
#include <catch2/catch.hpp>
#include <chrono>
#include <filesystem>
#include <regex>
#include <string>
#include <thread>
#include <vector>

#include "listener_with_opensm.hpp"
#include "support/live_fabric.hpp"
#include "support/opensm_daemon.hpp"
#include "support/process.hpp"
#include "support/simulator.hpp"
#include "support/skip.hpp"
#include "support/temp_dir.hpp"
#include "support/text_files.hpp"

using namespace ibpm::test;
namespace fs = std::filesystem;

namespace {

std::size_t times_in(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

// "62 ports polled" of a sweep's status line.
int swept_ports(const std::string& out) {
  std::smatch match;
  if (!std::regex_search(out, match, std::regex("(\\d+) ports polled"))) return -1;
  return std::stoi(match[1]);
}

}  // namespace

TEST_CASE("a host cabled in after the discovery is learnt at the SA and added to the topology") {
  IBPM_REQUIRE_SIMULATOR();
  if (std::string(IBPM_EVENT_PLUGIN).empty())
    IBPM_SKIP("the OpenSM event plugin was not built (apt-get install libopensm-dev)");
  LiveFabric live = LiveFabric::start();
  TempDir work("events-join");
  const std::string state = work / "state";
  const std::string topology = state + "/topology.ibnetdiscover";
  const std::string events = work / "events.log";
  const std::string socket = work / "events.sock";
  const std::string status = work / "listener.json";
  // The host is out of the fabric when the sweep discovers it.
  const std::string host = live.peer_name("leaf06", 6);  // "cn0036[1]"
  const std::string host_name = host.substr(0, host.find('['));
  live.console("Unlink \"leaf06\"[6]");
  ConsoleUndo relink(live, "ReLink \"leaf06\"[6]");
  const std::vector<std::string> outputs{"--state-dir", state, "--no-syslog", "--events-file",
                                         events,        "-t",  "20"};
  const ProcessRun first = live.run("check_ib_fabric", outputs);
  REQUIRE(first.exit_code == 0);
  REQUIRE(read_text(topology).find("\"" + host_name + "\"") == std::string::npos);
  const std::string baseline = work / "baseline.ibnetdiscover";
  fs::copy_file(topology, baseline);

  ListenerWithOpenSm running = start_listener_with_opensm(
      live, work.path(), socket,
      {"--status-file", status, "--topology", topology, "--min-interval", "200"}, outputs);

  // Cabled in: OpenSM brings the port up and sends trap 64 for its GID.
  live.console("Link \"leaf06\"[6] \"" + host_name + "\"[1]");
  INFO(read_text(work / "listener.log"));
  REQUIRE(log_says(events, "joined the fabric", std::chrono::seconds(20)));
  const std::string log = read_text(work / "listener.log");
  CHECK(log.find("trap 64 from LID ") != std::string::npos);
  CHECK(log.find("learning joined port 0x") != std::string::npos);
  INFO(read_text(events));
  CHECK(read_text(events).find(" OK joined the fabric, added to the saved topology: " + host_name +
                               " (port 0x") != std::string::npos);
  CHECK(read_text(events).find(host + " <-> leaf06[6]") != std::string::npos);

  // The saved topology holds it, cabled: check_ib_topology says it as a new node.
  const std::string saved = read_text(topology);
  INFO(saved);
  CHECK(saved.find("# \"" + host_name + "\"") != std::string::npos);
  const ProcessRun compared =
      run_process({bin("check_ib_topology"), "--cache", topology, "--baseline", baseline});
  INFO(compared.out);
  CHECK(compared.exit_code == 1);
  CHECK(compared.first_line().find("1 node new") != std::string::npos);
  CHECK(compared.out.find("CA " + host_name + " (0x") != std::string::npos);
  CHECK(compared.out.find("cabled [1 -> leaf06[6]]") != std::string::npos);

  // The next sweep polls it (its port and leaf06[6]): no discovery ran.
  const ProcessRun next = live.run("check_ib_fabric", outputs);
  INFO(next.out);
  CHECK(next.exit_code == 0);
  CHECK(swept_ports(next.out) == swept_ports(first.out) + 2);
  // Said once: a trap 64 for it again finds it in the topology.
  std::this_thread::sleep_for(std::chrono::seconds(2));
  CHECK(times_in(read_text(events), "joined the fabric") == 1);
  CHECK(read_text(status).find("\"joins\":1,") != std::string::npos);
  running.listener->stop();
  running.opensm->stop();
}
