// SPDX-License-Identifier: MIT

#include <dirent.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <regex>
#include <string>
#include <thread>

#include "sim/degrade.hpp"
#include "sim/process.hpp"
#include "sim/sim_state.hpp"
#include "sim/simulated_fabric.hpp"
#include "sim/stale_reaper.hpp"
#include "support/simulator.hpp"

using namespace ibpm;
using namespace ibpm::sim;
using namespace ibpm::test;
namespace fs = std::filesystem;

namespace {

// perfquery's value of one counter ("SymbolErrorCounter:..........42").
long long counter(const std::string& perfquery_output, const std::string& name) {
  std::smatch m;
  std::regex re(name + ":\\.*(\\d+)");
  if (!std::regex_search(perfquery_output, m, re)) return -1;
  return std::stoll(m[1]);
}

// Processes on this machine whose environment names the simulation's socket.
int processes_with_socket(const std::string& socket) {
  int found = 0;
  for (const auto& entry : fs::directory_iterator("/proc")) {
    std::string name = entry.path().filename().string();
    if (name.find_first_not_of("0123456789") != std::string::npos) continue;
    pid_t pid = std::stoi(name);
    if (process_alive(pid) && process_has_env(pid, "IBSIM_SOCKNAME=" + socket)) ++found;
  }
  return found;
}

}  // namespace

TEST_CASE("ibnetdiscover sees every node of a generated fat tree") {
  IBPM_REQUIRE_SIMULATOR();
  FatTree tree = small_tree();
  SimulatedFabric fabric = SimulatedFabric::start_text(tree.net_file());
  REQUIRE(fabric.running());
  REQUIRE(fs::exists(fabric.work_dir() / "env"));

  Discovery d = discover(fabric);
  REQUIRE(d.cas == std::set<std::string>(tree.hosts.begin(), tree.hosts.end()));
  std::set<std::string> switches;
  for (const auto& level : tree.switches) switches.insert(level.begin(), level.end());
  REQUIRE(d.switches == switches);
  // Every cabled port shows up from both ends, at the generated rate.
  REQUIRE(d.ports.size() == 2 * tree.topology.links().size());
  for (const DiscoveredPort& p : d.ports) REQUIRE(p.rate == "4xHDR");
  // One OpenSM sweep gave everything a LID.
  for (const auto& [node, lid] : d.lids) {
    INFO(node);
    REQUIRE(lid > 0);
  }
  REQUIRE(d.port("leaf01", 5)->peer == "spine01");
}

TEST_CASE("console Unlink drops a link from discovery and ReLink restores it") {
  IBPM_REQUIRE_SIMULATOR();
  SimulatedFabric fabric = SimulatedFabric::start_text(small_tree().net_file());
  REQUIRE(discover(fabric).port("leaf01", 5));

  fabric.console("Unlink \"leaf01\"[5]");
  Discovery down = discover(fabric);
  REQUIRE_FALSE(down.port("leaf01", 5));
  REQUIRE_FALSE(down.port("spine01", 1));
  REQUIRE(down.port("leaf01", 6));  // its parallel link is still there

  fabric.console("ReLink \"leaf01\"[5]");
  Discovery up = discover(fabric);
  REQUIRE(up.port("leaf01", 5));
  REQUIRE(up.port("leaf01", 5)->peer == "spine01");
}

TEST_CASE("a counter set with PerformanceSet is read back by perfquery") {
  IBPM_REQUIRE_SIMULATOR();
  SimulatedFabric fabric = SimulatedFabric::start_text(small_tree().net_file());
  int lid = discover(fabric).lids.at("leaf02");
  REQUIRE(lid > 0);

  std::string reply =
      fabric.console("PerformanceSet \"leaf02\"[3] PortCounters.SymbolErrorCounter=42");
  REQUIRE_THAT(reply, Catch::Contains("has been set to 42"));
  std::string out;
  REQUIRE(fabric.run_client({"perfquery", std::to_string(lid), "3"}, &out) == 0);
  REQUIRE(counter(out, "SymbolErrorCounter") == 42);

  SECTION("a batch big enough to go through a command file") {
    std::vector<std::string> batch;
    for (int port = 1; port <= 8; ++port)
      for (int i = 0; i < 10; ++i)
        batch.push_back("PerformanceSet \"leaf02\"[" + std::to_string(port) +
                        "] PortCounters.LinkDownedCounter=" + std::to_string(port * 10 + i));
    batch.push_back("# " + std::string(200, 'x'));  // longer than a console line
    fabric.console(batch);
    REQUIRE(fabric.run_client({"perfquery", std::to_string(lid), "8"}, &out) == 0);
    REQUIRE(counter(out, "LinkDownedCounter") == 89);
  }
  SECTION("refused commands throw") {
    REQUIRE_THROWS_AS(
        fabric.console("PerformanceSet \"nope\"[1] PortCounters.SymbolErrorCounter=1"),
        SimulationError);
    REQUIRE_THROWS_AS(fabric.console("Frobnicate"), SimulationError);
    REQUIRE(fabric.running());
  }
}

TEST_CASE("a degraded link comes up at the lower width") {
  IBPM_REQUIRE_SIMULATOR();
  FatTree tree = small_tree();
  LinkDegradation degraded;
  degraded.node = "leaf01";
  degraded.port = 5;  // to spine01[1]
  degrade_link(tree.topology, degraded);
  SimulatedFabric fabric = SimulatedFabric::start_text(tree.net_file());
  Discovery d = discover(fabric);
  REQUIRE(d.port("leaf01", 5)->rate == "1xHDR");
  REQUIRE(d.port("spine01", 1)->rate == "1xHDR");
  REQUIRE(d.port("leaf01", 6)->rate == "4xHDR");
}

TEST_CASE("two simulations at once do not interfere") {
  IBPM_REQUIRE_SIMULATOR();
  FatTree a_tree = small_tree(8, 8, "cn");
  FatTree b_tree = small_tree(12, 8, "gpu");
  SimulatedFabric a = SimulatedFabric::start_text(a_tree.net_file());
  SimulatedFabric b = SimulatedFabric::start_text(b_tree.net_file());
  REQUIRE(a.socket_name() != b.socket_name());
  REQUIRE(a.work_dir() != b.work_dir());

  Discovery da = discover(a);
  Discovery db = discover(b);
  REQUIRE(da.cas == std::set<std::string>(a_tree.hosts.begin(), a_tree.hosts.end()));
  REQUIRE(db.cas == std::set<std::string>(b_tree.hosts.begin(), b_tree.hosts.end()));

  // A console command on one is invisible on the other.
  // (Not cn0001's link: clients attach there, and would see nothing else.)
  a.console("Unlink \"leaf01\"[2]");
  REQUIRE_FALSE(discover(a).cas.count("cn0002"));
  REQUIRE(discover(b).port("leaf01", 2));
  a.stop();
  REQUIRE(discover(b).cas.size() == 12);
}

TEST_CASE("stop ends every process and removes the work folder") {
  IBPM_REQUIRE_SIMULATOR();
  SimulatedFabric fabric = SimulatedFabric::start_text(small_tree(8, 8).net_file());
  pid_t ibsim = fabric.ibsim_pid();
  std::string socket = fabric.socket_name();
  fs::path dir = fabric.work_dir();
  REQUIRE(fabric.pids() == std::vector<pid_t>{ibsim});
  REQUIRE(processes_with_socket(socket) == 1);
  std::string out;
  REQUIRE(fabric.run_client({"ibnetdiscover"}, &out) == 0);

  fabric.stop();
  REQUIRE_FALSE(fs::exists("/proc/" + std::to_string(ibsim)));
  REQUIRE(processes_with_socket(socket) == 0);
  REQUIRE_FALSE(fs::exists(dir));
  REQUIRE(fabric.pids().empty());
  REQUIRE_FALSE(fabric.running());
  REQUIRE_THROWS_AS(fabric.console("Attached"), SimulationError);
  fabric.stop();  // idempotent
}

TEST_CASE("a test that throws still cleans up through the destructor") {
  IBPM_REQUIRE_SIMULATOR();
  pid_t ibsim = 0;
  fs::path dir;
  std::string socket;
  try {
    SimulatedFabric fabric = SimulatedFabric::start_text(small_tree(8, 8).net_file());
    ibsim = fabric.ibsim_pid();
    dir = fabric.work_dir();
    socket = fabric.socket_name();
    throw std::runtime_error("test failure");
  } catch (const std::runtime_error&) {
  }
  REQUIRE(ibsim > 0);
  REQUIRE_FALSE(process_alive(ibsim));
  REQUIRE(processes_with_socket(socket) == 0);
  REQUIRE_FALSE(fs::exists(dir));
}

TEST_CASE("a net file ibsim cannot parse gives its log / and nothing is left running") {
  IBPM_REQUIRE_SIMULATOR();
  std::string broken =
      "Hca\t1\t\"cn01\"\n[1]\t\"nosuchswitch\"[1]\t# \"nosuchswitch\" lid 0 4xHDR\n\n";
  try {
    SimulatedFabric::start_text(broken);
    FAIL("expected SimulationError");
  } catch (const SimulationError& e) {
    std::string what = e.what();
    INFO(what);
    REQUIRE_THAT(what, Catch::Contains("ibsim exited"));
    REQUIRE_THAT(what, Catch::Contains("nosuchswitch"));
  }
}

TEST_CASE("a missing simulator program is named with its package") {
  SimulatedFabric::Options options;
  options.ibsim_program = "/nonexistent/ibsim";
  try {
    SimulatedFabric::start_text("Hca\t1\t\"cn01\"\n\n", options);
    FAIL("expected MissingProgram");
  } catch (const MissingProgram& e) {
    REQUIRE_THAT(e.what(), Catch::Contains("ibsim-utils"));
  }
}

TEST_CASE("a client killed at its timeout gives its ibsim slot back") {
  IBPM_REQUIRE_SIMULATOR();
  SimulatedFabric::Options options;
  options.client_timeout = std::chrono::milliseconds(300);
  SimulatedFabric fabric = SimulatedFabric::start_text(small_tree(8, 8).net_file(), options);
  // ibping -S serves pings until it is killed: SIGKILL at the timeout leaves its slot taken.
  REQUIRE_THROWS_AS(fabric.run_client({"ibping", "-S"}), SimulationError);
  REQUIRE_THAT(fabric.console("Attached"), !Catch::Contains("Client"));
  std::string out;
  REQUIRE(fabric.run_client({"ibnetdiscover"}, &out) == 0);
}

TEST_CASE("a detached simulation is reached and stopped through its folder") {
  IBPM_REQUIRE_SIMULATOR();
  fs::path dir = fs::temp_directory_path() / ("ibpm-simtest-" + std::to_string(getpid()));
  fs::remove_all(dir);
  SimulatedFabric::Options options;
  options.work_dir = dir;
  options.detached = true;
  pid_t ibsim = 0;
  {
    SimulatedFabric fabric = SimulatedFabric::start_text(small_tree(8, 8).net_file(), options);
    fabric.detach();
    ibsim = fabric.ibsim_pid();
  }
  REQUIRE(process_alive(ibsim));  // the destructor left it running
  REQUIRE(fs::exists(dir / "console"));
  SimulatedFabric attached = SimulatedFabric::attach(dir);
  REQUIRE(attached.running());
  std::string out;
  REQUIRE(attached.run_client({"ibnetdiscover"}, &out) == 0);
  REQUIRE_THAT(out, Catch::Contains("\"cn0008\""));
  fs::path clients = attached.clients_dir();
  attached.stop();
  REQUIRE_FALSE(process_alive(ibsim));
  REQUIRE_FALSE(fs::exists(dir));
  REQUIRE_FALSE(fs::exists(clients));
}

TEST_CASE("a simulation whose harness died is reaped by the next one") {
  IBPM_REQUIRE_SIMULATOR();
  SimulatedFabric fabric = SimulatedFabric::start_text(small_tree(8, 8).net_file());
  pid_t ibsim = fabric.ibsim_pid();
  fs::path dir = fabric.work_dir();
  // Pretend the owner is gone: hand the simulation to a process that has just exited.
  SpawnRequest request;
  request.argv = {"/bin/true"};
  pid_t dead = spawn(request);
  REQUIRE(wait_until(dead, std::chrono::steady_clock::now() + std::chrono::seconds(10)) == 0);
  auto state = read_state(dir);
  REQUIRE(state);
  state->owner_pid = dead;
  write_state(dir, *state);

  REQUIRE(reap_stale_simulations(dir.parent_path()) >= 1);
  REQUIRE_FALSE(process_alive(ibsim));
  REQUIRE_FALSE(fs::exists(dir));
  fabric.stop();  // nothing left to do
}

TEST_CASE("console comments may hold a percent sign") {
  IBPM_REQUIRE_SIMULATOR();
  SimulatedFabric fabric = SimulatedFabric::start_text(small_tree(8, 8).net_file());
  // Older ibsim printed comments with the comment as printf format.
  REQUIRE_THAT(fabric.console("# 100% done %s %n"), Catch::Contains("# 100% done %s %n"));
  REQUIRE(fabric.running());
}

TEST_CASE("more clients at once than ibsim serves wait for a slot") {
  IBPM_REQUIRE_SIMULATOR();
  SimulatedFabric fabric = SimulatedFabric::start_text(small_tree(8, 8).net_file());
  std::vector<int> codes(16, -1);
  std::vector<std::thread> threads;
  for (std::size_t i = 0; i < codes.size(); ++i)
    threads.emplace_back([&fabric, &codes, i] {
      std::string out;
      codes[i] = fabric.run_client({"ibnetdiscover"}, &out);
      if (out.find("\"cn0008\"") == std::string::npos) codes[i] = -2;
    });
  for (std::thread& t : threads) t.join();
  for (int code : codes) REQUIRE(code == 0);
}
