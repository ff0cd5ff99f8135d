// SPDX-License-Identifier: MIT
// check_ib_sm on a simulated fabric with two OpenSM daemons attached to different hosts
// (SIM_HOST), of priorities 10 and 5: master and standby, expectations, a killed master (no master,
// then the failover once, with its event, then OK), a stopped master (stale ActCount).
#include <signal.h>
#include <sys/stat.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <thread>

#include "support/process.hpp"
#include "support/simulator.hpp"
#include "support/temp_dir.hpp"

using namespace ibpm::test;
using namespace std::chrono_literals;

namespace {

// The check's client attaches to the first node (h0); the SMs to h1 and h2.
constexpr const char* kNet = R"(Hca 1 "h0"
[1] "sw1"[1]

Hca 1 "h1"
[1] "sw1"[2]

Hca 1 "h2"
[1] "sw1"[3]

Switch 8 "sw1"
[1] "h0"[1]
[2] "h1"[1]
[3] "h2"[1]
)";

// Heavy sweeps 10 s apart. A standby declares the master dead after 3 polls 3 s apart: a failover
// takes about 12 s. (Shorter polls let a standby on a loaded machine call a live master dead.)
constexpr const char* kOpensmConf =
    "sweep_interval 10\nforce_heavy_sweep TRUE\nsminfo_polling_timeout 3000\n"
    "polling_retry_number 3\n";

std::unique_ptr<BackgroundProcess> start_opensm(ibpm::sim::SimulatedFabric& fabric,
                                                const TempDir& dir, const std::string& host,
                                                int priority) {
  const std::string home = dir / host;
  std::filesystem::create_directories(home);
  std::string command = "cd '" + home + "' && exec env";
  for (const std::string& var : fabric.client_env_overrides()) command += " '" + var + "'";
  command += " SIM_HOST=" + host + " OSM_CACHE_DIR='" + home + "' '" + find_program("opensm") +
             "' -F '" + (dir / "opensm.conf") + "' -p " + std::to_string(priority) + " -f '" +
             home + "/osm.log'";
  return std::make_unique<BackgroundProcess>(std::vector<std::string>{"/bin/sh", "-c", command},
                                             home + "/stdout");
}

ProcessRun check(ibpm::sim::SimulatedFabric& fabric, const std::vector<std::string>& args) {
  std::vector<std::string> argv{
      bin("check_ib_sm"), "--mad-timeout", "200", "--mad-retries", "1", "-t", "10"};
  argv.insert(argv.end(), args.begin(), args.end());
  ProcessRun run;
  run.exit_code = fabric.run_client(argv, &run.out, &run.err);
  return run;
}

// Runs the check until `done` says so or `limit` passes; the last run.
template <class Done>
ProcessRun check_until(ibpm::sim::SimulatedFabric& fabric, const std::vector<std::string>& args,
                       Done done, std::chrono::seconds limit,
                       std::vector<ProcessRun>* all = nullptr) {
  const auto end = std::chrono::steady_clock::now() + limit;
  for (;;) {
    ProcessRun run = check(fabric, args);
    if (all) all->push_back(run);
    if (done(run) || std::chrono::steady_clock::now() > end) return run;
    std::this_thread::sleep_for(500ms);
  }
}

std::string read_text(const std::string& path) {
  std::ifstream in(path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// What an OpenSM said of its own state, for a failure's message.
std::string sm_states(const TempDir& dir, const std::string& host) {
  std::istringstream log(read_text(dir / (host + "/osm.log")));
  std::string said = host + "'s OpenSM:\n";
  for (std::string line; std::getline(log, line);)
    if (line.find("SM state") != std::string::npos || line.find("ERR") != std::string::npos ||
        line.find("Entering") != std::string::npos)
      said += line + "\n";
  return said + read_text(dir / (host + "/stdout"));
}

}  // namespace

TEST_CASE("check_ib_sm follows two OpenSM daemons: master, standby, failover, stale") {
  IBPM_REQUIRE_SIMULATOR();
  ibpm::sim::SimulatedFabric::Options options;
  options.run_subnet_manager = false;
  auto fabric = ibpm::sim::SimulatedFabric::start_text(kNet, options);
  TempDir dir("sm-live");
  std::ofstream(dir / "opensm.conf") << kOpensmConf;
  const std::string events = dir / "events";
  const std::vector<std::string> args{"--state-dir", dir / "state", "--events-file",
                                      events,        "--no-syslog", "-v"};

  // The master first, alone, then the standby once the master has swept: OpenSM under ibsim can
  // hang in DISCOVERING for good when two SMs discover at once (each one's SMInfo query arriving
  // in the middle of the other's sweep), and priority then no longer decides. Should a start
  // hang all the same (an SM stuck DISCOVERING, which the check says is UNKNOWN, or a master
  // that never lists the standby: a MAD lost in the simulator is never timed out), the pair is
  // started again, up to four times: what is tested is the check, not OpenSM's start.
  std::unique_ptr<BackgroundProcess> master;
  std::unique_ptr<BackgroundProcess> standby;
  ProcessRun up;
  int attempts = 0;
  while (attempts++ < 4) {
    if (master) master->stop();
    if (standby) standby->stop();
    standby.reset();
    std::filesystem::remove_all(dir / "state");  // nothing of a failed start carries over
    std::filesystem::remove(events);
    master = start_opensm(fabric, dir, "h1", 10);
    up = check_until(
        fabric, args,
        [](const ProcessRun& r) { return r.exit_code == 0 && r.has("IB SM OK - master h1 ("); },
        30s);  // an upper bound: a loaded machine starts OpenSM slowly
    if (up.exit_code != 0) continue;
    standby = start_opensm(fabric, dir, "h2", 5);
    // Both up: the higher priority one is master, the other standby.
    up = check_until(
        fabric, args, [](const ProcessRun& r) { return r.exit_code == 0 && r.has("1 standby"); },
        30s);
    if (up.exit_code == 0 && up.has("1 standby")) break;
  }
  // Whatever the start logged is not the failover below (whose event must be the file's only line).
  std::filesystem::remove(events);
  INFO("start attempts: " << attempts << "\n"
                          << up.out << up.err << sm_states(dir, "h1") << sm_states(dir, "h2"));
  REQUIRE(up.exit_code == 0);
  REQUIRE(standby);
  CHECK(up.first_line().rfind("IB SM OK - master h1 (", 0) == 0);
  CHECK(up.has("priority 10, 1 standby, 2 SMs"));
  CHECK(up.has("h2 ("));
  CHECK(up.has("): standby, priority 5, ActCount "));
  CHECK(up.has("sa_query_time="));

  // Expectations: a third SM, another master.
  const ProcessRun three = check(fabric, {"--state-dir", dir / "expect", "--expect-sms", "3"});
  INFO(three.out);
  CHECK(three.exit_code == 1);
  CHECK(three.first_line().find("2 of 3 expected SMs answer; 1 never seen") != std::string::npos);
  const ProcessRun other = check(fabric, {"--state-dir", dir / "expect", "--expect-master", "h2"});
  INFO(other.out);
  CHECK(other.exit_code == 1);
  CHECK(other.first_line().find("master is h1 (") != std::string::npos);
  CHECK(other.first_line().find("expected h2") != std::string::npos);

  // A FIFO planted in place of the state file: named once, never waited on (the check's -t 10 is
  // not reached), and replaced by this run's state.
  std::string state_file;
  for (const auto& entry : std::filesystem::directory_iterator(dir.path() / "expect" / "sm"))
    state_file = entry.path().string();
  REQUIRE(!state_file.empty());
  std::filesystem::remove(state_file);
  REQUIRE(::mkfifo(state_file.c_str(), 0600) == 0);
  const ProcessRun fifo = check(fabric, {"--state-dir", dir / "expect"});
  INFO(fifo.out << fifo.err);
  CHECK(fifo.exit_code == 0);
  CHECK(fifo.has(state_file + ": not a regular file (not used: replaced by this run's state)"));
  CHECK(std::filesystem::is_regular_file(state_file));
  const ProcessRun replaced = check(fabric, {"--state-dir", dir / "expect"});
  INFO(replaced.out);
  CHECK(replaced.exit_code == 0);
  CHECK_FALSE(replaced.has("not used"));

  // The master killed (by pid): CRITICAL while no master answers, the failover once, then OK.
  master->stop();  // SIGTERM, by its pid
  std::vector<ProcessRun> runs;
  const ProcessRun over = check_until(
      fabric, args, [](const ProcessRun& r) { return r.exit_code != 2; }, 90s, &runs);
  INFO(over.out << sm_states(dir, "h2"));
  for (std::size_t i = 0; i + 1 < runs.size(); ++i) {
    INFO(runs[i].out);
    CHECK(runs[i].exit_code == 2);
    CHECK((runs[i].has("no master SM answers") || runs[i].has("has sent no SMP")));
  }
  CHECK(runs.size() >= 2);  // at least one run saw no master
  CHECK(over.exit_code == 1);
  CHECK(over.first_line().find("failover from h1 (") != std::string::npos);
  CHECK(over.first_line().find(" to h2 (") != std::string::npos);
  const std::string logged = read_text(events);
  INFO(logged);
  CHECK(logged.find("WARNING failover from h1 (") != std::string::npos);
  CHECK(std::count(logged.begin(), logged.end(), '\n') == 1);

  const ProcessRun after = check(fabric, args);
  INFO(after.out);
  CHECK(after.exit_code == 0);
  CHECK(after.first_line().rfind("IB SM OK - master h2 (", 0) == 0);
  CHECK(read_text(events) == logged);

  // The new master stopped (SIGSTOP): registered, silent, no standby to take over; its ActCount
  // is stale after 1 s. (Stopping a master that a standby watches, then ending it, can leave
  // OpenSM's standby DISCOVERING for a minute: the failover above ends the master cleanly.)
  ::kill(standby->pid(), SIGSTOP);
  std::this_thread::sleep_for(1200ms);
  const ProcessRun stale = check(fabric, [&] {
    auto a = args;
    a.insert(a.end(), {"--stale-after", "1"});
    return a;
  }());
  ::kill(standby->pid(), SIGCONT);
  INFO(stale.out);
  CHECK(stale.exit_code == 2);
  CHECK(stale.first_line().find("master SM h2 (") != std::string::npos);
  CHECK(stale.first_line().find(") has sent no SMP in ") != std::string::npos);
  standby->stop();
}

// No SM has configured the fabric: CRITICAL (a fabric without a subnet manager brings no port
// up and fails no master over), saying why, not UNKNOWN as if the check could not tell.
TEST_CASE("check_ib_sm without a subnet manager is CRITICAL and says why") {
  IBPM_REQUIRE_SIMULATOR();
  ibpm::sim::SimulatedFabric::Options options;
  options.run_subnet_manager = false;
  auto fabric = ibpm::sim::SimulatedFabric::start_text(kNet, options);
  TempDir dir("sm-none");
  const ProcessRun run = check(fabric, {"--state-dir", dir / "state"});
  INFO(run.out << run.err);
  CHECK(run.exit_code == 2);
  CHECK(run.first_line().rfind("IB SM CRITICAL - no master SM answers", 0) == 0);
  CHECK(run.out.find("knows no subnet manager (SM LID 0)") != std::string::npos);
}
