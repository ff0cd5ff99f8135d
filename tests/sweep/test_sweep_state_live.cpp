// SPDX-License-Identifier: MIT
// check_ib_fabric's state on a live simulated fat tree: sweeps and check_ib_node runs at the same
// time on the same state all finish; a sweep that runs out of -t is UNKNOWN, keeps what it read
// and logs nothing for what it did not read; a Down port is named by its link state; a sweep
// killed in the middle of its writes leaves every file readable and the next sweep's rates right.
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <latch>
#include <thread>

#include "support/check_output.hpp"
#include "support/live_fabric.hpp"
#include "support/rrd_files.hpp"
#include "support/simulator.hpp"
#include "sweep/csv_table.hpp"

using namespace ibpm::test;
using ibpm::sweep::test::read_csv;
namespace fs = std::filesystem;

namespace {

std::vector<std::string> state_sweep_args(const StateDir& state,
                                          std::vector<std::string> more = {}) {
  std::vector<std::string> args{"--state-dir", state.path(), "--no-syslog", "--events-file",
                                state.path() + "/events.log"};
  args.insert(args.end(), more.begin(), more.end());
  return args;
}

std::size_t line_count(const std::string& path) {
  std::ifstream in(path);
  std::size_t n = 0;
  for (std::string line; std::getline(in, line);) ++n;
  return n;
}

// The ports' RRD files (the per-subtree aggregates, STATE_DIR/aggregates, apart).
std::size_t rrd_files(const StateDir& state) {
  std::size_t n = 0;
  for (const auto& entry : fs::recursive_directory_iterator(state.path()))
    n += entry.path().extension() == ".rrd" &&
         entry.path().string().find("/aggregates/") == std::string::npos;
  return n;
}

}  // namespace

TEST_CASE("Sweeps and check_ib_node runs at the same time on the same state all finish") {
  IBPM_REQUIRE_SIMULATOR();
  LiveFabric live = LiveFabric::start();
  StateDir state("sweep-concurrent");
  REQUIRE(live.run("check_ib_fabric", state_sweep_args(state)).exit_code == 0);
  const std::string rrd = state.port_rrd(live, "leaf01", 3);
  const double before = sample_time(rrd);

  for (int round = 0; round < 8; ++round) {
    ProcessRun sweep, node, other;
    std::latch go(3);
    std::thread a([&] {
      go.arrive_and_wait();
      sweep = live.run("check_ib_fabric", state_sweep_args(state));
    });
    std::thread b([&] {
      go.arrive_and_wait();
      std::this_thread::sleep_for(std::chrono::milliseconds(round * 3));
      node = live.run("check_ib_node", {"--state-dir", state.path(), "-n", "leaf01"});
    });
    std::thread c([&] {
      go.arrive_and_wait();
      std::this_thread::sleep_for(std::chrono::milliseconds(round * 5));
      other = live.run("check_ib_port", {"--state-dir", state.path(), "-n", "leaf01", "-p", "3"});
    });
    a.join();
    b.join();
    c.join();
    for (const ProcessRun* run : {&sweep, &node, &other}) {
      INFO("round " << round << ": " << run->out << run->err);
      CHECK(run->exit_code >= 0);
      CHECK(run->exit_code <= 2);
      CHECK_FALSE(run->has("locked by another run"));
      CHECK_FALSE(run->has("UNKNOWN"));
    }
  }
  REQUIRE_NOTHROW(rrd_info(rrd));
  CHECK(sample_time(rrd) > before);
  CHECK(line_count(state.path() + "/events.log") == 0);
}

TEST_CASE("A sweep that runs out of -t is UNKNOWN, keeps what it read and logs nothing else") {
  IBPM_REQUIRE_SIMULATOR();
  LiveFabric live = LiveFabric::start();
  StateDir state("sweep-deadline");
  REQUIRE(live.run("check_ib_fabric", state_sweep_args(state)).exit_code == 0);
  const std::string read_rrd = state.port_rrd(live, "leaf01", 3);
  const double before = sample_time(read_rrd);

  // leaf03 drops every MAD; its first try alone (5 s) outlasts the run's -t of 3 s.
  live.console("Error \"leaf03\" 100");
  ConsoleUndo restore(live, "Error \"leaf03\" 0");
  // Its hosts too: their MADs go through it. 12 leaf ports, 6 hosts.
  const std::size_t unread = live.cabled_ports("leaf03").size() + 6;
  const ProcessRun cut =
      live.run("check_ib_fabric",
               state_sweep_args(state, {"-t", "3", "--mad-timeout", "5000", "--mad-retries", "3"}));
  INFO(cut.out << cut.err);
  CHECK(cut.exit_code == 3);
  CHECK(cut.first_line().rfind("IB FABRIC UNKNOWN - sweep did not finish in ", 0) == 0);
  CHECK(cut.has(": " + std::to_string(144 - unread) + " of 144 ports read"));
  CHECK_FALSE(cut.has("unreachable ("));  // not read is not unreachable
  CHECK(perf_value(cut, "ports_not_read") == static_cast<double>(unread));
  CHECK(perf_value(cut, "ports_unreachable") == 0);
  CHECK(line_count(state.path() + "/events.log") == 0);
  // What was read is stored.
  CHECK(sample_time(read_rrd) > before);

  // The leaf answers again: the next sweep reads every port, and its events are the receive
  // errors the simulator counted for the dropped MADs, never an UNKNOWN.
  live.console("Error \"leaf03\" 0");
  const ProcessRun next = live.run("check_ib_fabric", state_sweep_args(state));
  INFO(next.out);
  CHECK(next.exit_code <= 2);
  CHECK(perf_value(next, "ports_polled") == 144);
  std::ifstream events(state.path() + "/events.log");
  for (std::string event; std::getline(events, event);) {
    CHECK(event.find("UNKNOWN") == std::string::npos);
    CHECK(event.find("rcv_errors") != std::string::npos);
  }
}

TEST_CASE("A sweep names a Down port by its link state") {
  IBPM_REQUIRE_SIMULATOR();
  LiveFabric live = LiveFabric::start();
  StateDir state("sweep-down");
  // The simulator does not count a link down in LinkDownedCounter: read PortInfo every sweep.
  const std::vector<std::string> args = state_sweep_args(state, {"--port-info-every", "1"});
  REQUIRE(live.run("check_ib_fabric", args).exit_code == 0);
  REQUIRE(live.run("check_ib_fabric", args).exit_code == 0);
  live.console("Unlink \"leaf06\"[9]");
  ConsoleUndo relink(live, "ReLink \"leaf06\"[9]");
  const ProcessRun down = live.run("check_ib_fabric", args);
  INFO(down.out);
  CHECK(down.exit_code == 2);
  // Both ends are down; whichever is named first, its reason is the link state.
  const std::string peer = live.peer_name("leaf06", 9);
  CHECK((down.has("worst: leaf06[9] <-> " + peer + " link Down") ||
         down.has("worst: " + peer + " <-> leaf06[9] link Down")));
  std::ifstream events(state.path() + "/events.log");
  std::size_t down_events = 0;
  for (std::string event; std::getline(events, event);)
    down_events += event.find("OK -> CRITICAL: link Down") != std::string::npos;
  CHECK(down_events == 2);
}

TEST_CASE("A sweep killed while it writes leaves every file readable and the next rates right") {
  IBPM_REQUIRE_SIMULATOR();
  LiveFabric live = LiveFabric::start();
  StateDir state("sweep-killed");
  REQUIRE(live.run("check_ib_fabric", state_sweep_args(state)).exit_code == 0);
  const fs::path record = fs::path(state.path()) / "samples" / "fabric.rec";
  REQUIRE(fs::exists(record));

  // Kill sweeps at staggered moments: each somewhere between its start and its end.
  for (int delay_ms : {30, 60, 90, 120, 150, 200}) {
    const fs::path env = live.fabric.work_dir() / "env";
    const std::string command = ". '" + env.string() +
                                "' && exec '" IBPM_BIN_DIR "/check_ib_fabric' --state-dir '" +
                                state.path() + "' --no-syslog >/dev/null 2>&1";
    const pid_t pid = ::fork();
    REQUIRE(pid >= 0);
    if (pid == 0) {
      ::execl("/bin/sh", "sh", "-c", command.c_str(), static_cast<char*>(nullptr));
      ::_exit(127);
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(delay_ms));
    ::kill(pid, SIGKILL);
    int status = 0;
    ::waitpid(pid, &status, 0);
    live.fabric.release_stale_clients();  // the killed client's simulator slot
  }
  // Every RRD reads, and so does the record (or it is ignored with a note, never an error).
  for (const auto& entry : fs::recursive_directory_iterator(state.path()))
    if (entry.path().extension() == ".rrd") REQUIRE_NOTHROW(rrd_info(entry.path().string()));
  CHECK(rrd_files(state) == 144);

  live.console("PerformanceSet \"leaf02\"[3] PortCounters.SymbolErrorCounter=30");
  std::this_thread::sleep_for(std::chrono::seconds(1));
  const ProcessRun next = live.run("check_ib_fabric", state_sweep_args(state, {"--worst", "50"}));
  INFO(next.out);
  CHECK(next.exit_code == 2);
  CHECK(next.first_line().find("144 ports polled") != std::string::npos);
  CHECK(next.first_line().find("collecting baseline") == std::string::npos);
  CHECK(next.has("leaf02[3] <-> "));
  CHECK(perf_value(next, "ports_error") == 1);
  CHECK_FALSE(next.has("sample record"));  // the record was whole
}

TEST_CASE("A cable left out stays Down on both switches across a rediscovery, until accepted") {
  // A discovery no longer sees a cable that is out: its ports must not drop out of the checks
  // (a false recovery) but stay Down until check_ib_topology --write-baseline accepts the fabric.
  IBPM_REQUIRE_SIMULATOR();
  LiveFabric live = LiveFabric::start();
  StateDir state("sweep-lost-cable");
  const std::vector<std::string> args = state_sweep_args(state, {"--port-info-every", "1"});
  REQUIRE(live.run("check_ib_fabric", args).exit_code == 0);
  live.console("Unlink \"leaf06\"[9]");
  ConsoleUndo relink(live, "ReLink \"leaf06\"[9]");
  const std::string peer = live.peer_name("leaf06", 9);
  const std::string peer_node = peer.substr(0, peer.find('['));
  const auto down_on_both = [&](const std::string& what) {
    INFO(what);
    std::vector<std::string> rediscover = args;
    rediscover.insert(rediscover.end(), {"--rediscover-after", "1"});
    const ProcessRun sweep = live.run("check_ib_fabric", rediscover);
    INFO(sweep.out);
    CHECK(sweep.exit_code == 2);
    CHECK((sweep.has("leaf06[9] <-> " + peer + " link Down") ||
           sweep.has(peer + " <-> leaf06[9] link Down")));
    for (const std::string& node : {std::string("leaf06"), peer_node}) {
      const ProcessRun check =
          live.run("check_ib_node", {"--state-dir", state.path(), "-n", node, "-t", "20"});
      INFO(check.out);
      CHECK(check.exit_code == 2);
      CHECK(check.first_line().find("link Down") != std::string::npos);
    }
    const ProcessRun port = live.run(
        "check_ib_port", {"--state-dir", state.path(), "-n", "leaf06", "--port", "9", "-t", "20"});
    INFO(port.out);
    CHECK(port.exit_code == 2);
    CHECK(port.out.find("does not exist") == std::string::npos);
  };
  down_on_both("before the rediscovery");
  // The saved topology grows older than --rediscover-after: discovered again (twice).
  for (int rediscovery = 1; rediscovery <= 2; ++rediscovery) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1100));
    down_on_both("after rediscovery " + std::to_string(rediscovery));
  }
  CHECK(fs::exists(state.path() + "/lost-cables.ibnetdiscover"));

  // The operator accepts the fabric as it is: the cable is no longer the switches' concern.
  const ProcessRun accepted =
      live.run("check_ib_topology",
               {"--state-dir", state.path(), "--write-baseline", state.path() + "/baseline.cache"});
  INFO(accepted.out);
  CHECK(accepted.has("baseline written to "));
  CHECK_FALSE(fs::exists(state.path() + "/lost-cables.ibnetdiscover"));
  // The cable's two ports are no longer polled. (With no subnet manager running to route
  // around the cable, a host behind it may stay unreachable: a WARNING of its own.)
  const ProcessRun after = live.run("check_ib_fabric", args);
  INFO(after.out);
  CHECK(after.exit_code != 2);
  CHECK_FALSE(after.has("link Down"));
  CHECK(after.has(" ports=142;"));
}

TEST_CASE("Under umask 002 the sweep's folders are not group-writable, sweep/ included") {
  IBPM_REQUIRE_SIMULATOR();
  LiveFabric live = LiveFabric::start();
  StateDir state("sweep-umask");
  const mode_t before = ::umask(0002);
  const ProcessRun run = live.run("check_ib_fabric", state_sweep_args(state));
  ::umask(before);
  INFO(run.out);
  REQUIRE(run.exit_code == 0);
  for (const char* folder : {"sweep", "samples"}) {
    struct stat info {};
    REQUIRE(::stat((state.path() + "/" + folder).c_str(), &info) == 0);
    INFO(folder << " mode " << std::oct << (info.st_mode & 07777));
    CHECK((info.st_mode & S_IWGRP) == 0);
    CHECK((info.st_mode & S_IWOTH) == 0);
  }
}
