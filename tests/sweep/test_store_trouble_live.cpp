// SPDX-License-Identifier: MIT
// What the store does to a sweep as a whole, on a live simulated fat tree and a real rrdcached:
// a daemon that hangs (SIGSTOP) costs no port its state (each is judged from its counters and the
// sample record, the store's failure is one line, one event when it begins and one when it ends),
// and updates refused because someone else dated the file just ahead of the collector's are
// counted, named and, where one collector owns each port (--shard), a WARNING.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <catch2/catch.hpp>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <thread>

#include "support/check_output.hpp"
#include "support/live_fabric.hpp"
#include "support/rrdcached_daemon.hpp"
#include "support/simulator.hpp"
#include "sweep/csv_table.hpp"

using namespace ibpm::test;
namespace fs = std::filesystem;
using namespace std::chrono_literals;

namespace store_trouble_test {

const char* const kFaketimeLibrary = "/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1";

// bin/PROGRAM ARGS... as a client of the simulation with the clock `shift` ahead ("+20m").
ProcessRun run_later(LiveFabric& live, const std::string& shift, const std::string& program,
                     const std::vector<std::string>& args) {
  std::vector<std::string> argv{
      "env", "LD_PRELOAD=" + live.fabric.ld_preload() + ":" + kFaketimeLibrary, "FAKETIME=" + shift,
      "FAKETIME_DONT_FAKE_MONOTONIC=1", bin(program)};
  argv.insert(argv.end(), args.begin(), args.end());
  ProcessRun run;
  run.exit_code = live.fabric.run_client(argv, &run.out, &run.err);
  return run;
}

std::vector<std::string> lines_of(const std::string& path) {
  std::vector<std::string> lines;
  std::ifstream in(path);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

std::size_t lines_with(const std::vector<std::string>& lines, const std::string& text) {
  std::size_t count = 0;
  for (const std::string& line : lines) count += line.find(text) != std::string::npos;
  return count;
}

// The daemon stopped (SIGSTOP) while this lives: it accepts connections and answers nothing.
class Hung {
 public:
  explicit Hung(pid_t pid) : pid_(pid) { ::kill(pid_, SIGSTOP); }
  ~Hung() { resume(); }
  Hung(const Hung&) = delete;
  Hung& operator=(const Hung&) = delete;
  void resume() {
    if (pid_ > 0) ::kill(pid_, SIGCONT);
    pid_ = -1;
  }

 private:
  pid_t pid_;
};

// A connection to the daemon over TCP, as anyone who reaches it has one.
class Client {
 public:
  explicit Client(int port) : fd_(::socket(AF_INET, SOCK_STREAM, 0)) {
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    addr.sin_port = htons(static_cast<std::uint16_t>(port));
    connected_ = ::connect(fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0;
  }
  ~Client() { ::close(fd_); }
  Client(const Client&) = delete;
  Client& operator=(const Client&) = delete;

  // The command's answer: its status line and the lines it announces ("N ..." with N > 0).
  std::vector<std::string> ask(const std::string& command) {
    std::vector<std::string> answer;
    const std::string line = command + "\n";
    if (!connected_ || ::write(fd_, line.data(), line.size()) != static_cast<ssize_t>(line.size()))
      return answer;
    answer.push_back(read_line());
    const long more = std::strtol(answer[0].c_str(), nullptr, 10);
    for (long i = 0; i < more; ++i) answer.push_back(read_line());
    return answer;
  }

 private:
  std::string read_line() {
    std::string line;
    char c = 0;
    while (::read(fd_, &c, 1) == 1 && c != '\n') line += c;
    return line;
  }
  int fd_;
  bool connected_ = false;
};

// Keeps `file` updated 1.5 s ahead of the clock every half second, with the values of the
// collector's last sample in the daemon's cache (a plausible sample: only the dates are forged).
class Forger {
 public:
  Forger(int port, std::string file) : port_(port), file_(std::move(file)) {
    Client client(port_);
    const std::vector<std::string> pending = client.ask("PENDING " + file_);
    if (pending.size() > 1) values_ = pending.back().substr(pending.back().find(':'));
    if (!values_.empty()) thread_ = std::thread([this] { run(); });
  }
  ~Forger() {
    stop_ = true;
    if (thread_.joinable()) thread_.join();
  }
  Forger(const Forger&) = delete;
  Forger& operator=(const Forger&) = delete;
  bool started() const { return !values_.empty(); }
  int accepted() const { return accepted_; }

 private:
  void run() {
    Client client(port_);
    while (!stop_) {
      char stamp[32];
      std::snprintf(stamp, sizeof stamp, "%.3f", now_epoch_seconds() + 1.5);
      const std::vector<std::string> answer = client.ask("UPDATE " + file_ + " " + stamp + values_);
      accepted_ += !answer.empty() && answer[0].starts_with("0 ");
      std::this_thread::sleep_for(500ms);
    }
  }
  int port_;
  std::string file_;
  std::string values_;  // ":V1:...:Vn"
  std::atomic<bool> stop_{false};
  std::atomic<int> accepted_{0};
  std::thread thread_;
};

}  // namespace store_trouble_test

using namespace store_trouble_test;

TEST_CASE("A hung store costs no port its state: one line, one event as it fails, one as it ends") {
  IBPM_REQUIRE_SIMULATOR();
  if (!fs::exists(kRrdcached)) IBPM_SKIP("rrdcached is not installed (apt-get install rrdcached)");
  const Listen how = GENERATE(Listen::tcp, Listen::unix_socket);
  LiveFabric live = LiveFabric::start();
  StateDir state(how == Listen::tcp ? "hung-store-tcp" : "hung-store-unix");
  Rrdcached daemon(fs::path(state.path()) / "store", how);
  REQUIRE(daemon.wait_until_listening());
  // A local daemon takes the files where it may (-B: its base folder); a central one its own.
  const std::string state_dir =
      how == Listen::tcp ? state.path() : (fs::path(state.path()) / "store" / "state").string();
  const std::string events = state.path() + "/events.log";
  const auto args_with = [&](std::vector<std::string> more) {
    std::vector<std::string> args{"--state-dir", state_dir, "--no-syslog", "--events-file", events,
                                  "--worst",     "200",     "--rrdcached", daemon.address()};
    args.insert(args.end(), more.begin(), more.end());
    return args;
  };
  const auto sweep = [&](std::vector<std::string> more) {
    std::this_thread::sleep_for(1100ms);
    return live.run("check_ib_fabric", args_with(std::move(more)));
  };
  REQUIRE(sweep({}).exit_code == 0);
  const ProcessRun steady = sweep({});
  INFO(steady.out << steady.err);
  REQUIRE(steady.exit_code == 0);
  const double polled = perf_value(steady, "ports_polled").value_or(0);
  REQUIRE(polled > 100);

  // The store hangs, and one port counts symbol errors meanwhile: the port is CRITICAL from its
  // counters and its previous sample in the record, every other port OK (the old code: every
  // port UNKNOWN, "state file: rrdcached ... did not answer", and an event for each).
  Hung hung(daemon.pid());
  live.console("PerformanceSet \"leaf02\"[3] PortCounters.SymbolErrorCounter=80");
  ConsoleUndo clear(live, "PerformanceSet \"leaf02\"[3] PortCounters.SymbolErrorCounter=0");
  const std::string cable = "leaf02[3] <-> " + live.peer_name("leaf02", 3);
  for (int i = 0; i < 2; ++i) {
    const ProcessRun run = sweep({"-t", "4"});
    INFO(run.out << run.err);
    CHECK(run.exit_code == 2);
    CHECK(run.first_line().find("1 in error") != std::string::npos);
    CHECK(run.first_line().find("worst: " + cable + " symbol_errors") != std::string::npos);
    CHECK(perf_value(run, "ports_error") == 1);
    CHECK_FALSE(run.has("state file:"));
    CHECK_FALSE(run.has(" unknown"));
    // One line for the store, naming the daemon and what it cost.
    CHECK(run.has("\\_[UNKNOWN] the store failed (rrdcached at "));
    CHECK(perf_value(run, "samples_not_stored") == polled);
    // The port's event, and the store's once: not one per port, not again while it hangs.
    const std::vector<std::string> logged = lines_of(events);
    CHECK(logged.size() == 2);
    CHECK(lines_with(logged, cable + " (") == 1);
    CHECK(lines_with(logged, "OK -> CRITICAL") == 1);
    CHECK(lines_with(logged, " UNKNOWN the store failed (rrdcached at ") == 1);
  }

  // Still hung 20 minutes later: the record's samples are older than the RRD heartbeat, and the
  // store cannot say whether someone wrote the ports since. They still stand: the port is judged
  // over the longer interval, not taken for a first sample.
  if (fs::exists(store_trouble_test::kFaketimeLibrary)) {
    const ProcessRun later = run_later(live, "+20m", "check_ib_fabric", args_with({"-t", "4"}));
    INFO(later.out << later.err);
    CHECK(later.exit_code == 2);
    CHECK(later.first_line().find("worst: " + cable + " symbol_errors") != std::string::npos);
    CHECK_FALSE(later.has("baseline"));
    CHECK_FALSE(later.has("state file:"));
    CHECK(lines_of(events).size() == 2);
  }

  // The store answers again: said once; the samples it missed join the next interval.
  hung.resume();
  const ProcessRun back = sweep({"-t", "4"});
  INFO(back.out << back.err);
  CHECK(back.exit_code == 2);  // the errors are in the interval since the last stored sample
  CHECK_FALSE(back.has("the store failed"));
  CHECK_FALSE(perf_value(back, "samples_not_stored").has_value());
  std::vector<std::string> logged = lines_of(events);
  CHECK(logged.size() == 3);
  CHECK(lines_with(logged, " OK the store answers again (failing since ") == 1);
  const ProcessRun clean = sweep({});
  INFO(clean.out << clean.err);
  CHECK(clean.exit_code == 0);
  logged = lines_of(events);
  CHECK(logged.size() == 4);
  CHECK(lines_with(logged, "CRITICAL -> OK") == 1);
}

TEST_CASE("Updates refused because someone dated a port's file ahead are counted and named") {
  IBPM_REQUIRE_SIMULATOR();
  if (!fs::exists(kRrdcached)) IBPM_SKIP("rrdcached is not installed (apt-get install rrdcached)");
  // One collector owns each port (--shard): any other writer is news, a WARNING. Without shards
  // (collectors may overlap while a shard moves) it is said, not judged.
  const bool sharded = GENERATE(true, false);
  LiveFabric live = LiveFabric::start();
  StateDir state(sharded ? "overtaken-shard" : "overtaken-whole");
  Rrdcached daemon(fs::path(state.path()) / "store", Listen::tcp);
  REQUIRE(daemon.wait_until_listening());
  std::vector<std::string> args{
      "--state-dir", state.path(),     "--no-syslog", "--csv", state.path() + "/samples.csv",
      "--rrdcached", daemon.address(), "--worst",     "50"};
  if (sharded) args.insert(args.end(), {"--shard", "1/2"});
  const auto sweep = [&] {
    std::this_thread::sleep_for(1100ms);
    return live.run("check_ib_fabric", args);
  };
  REQUIRE(sweep().exit_code == 0);
  const ProcessRun steady = sweep();
  INFO(steady.out << steady.err);
  REQUIRE(steady.exit_code == 0);
  CHECK(perf_value(steady, "store_overtaken") == 0);  // graphed from the first sweep on

  // A switch port this collector sweeps, from its own CSV.
  const auto csv = ibpm::sweep::test::read_csv(state.path() + "/samples.csv");
  std::string name, file;
  for (const auto& row : csv.rows)
    if (row.at("port_name").starts_with("leaf")) {
      name = row.at("port_name");
      file = row.at("node_guid") + "/port" + row.at("port") + ".rrd";
      break;
    }
  REQUIRE_FALSE(file.empty());
  const std::string node = name.substr(0, name.find('['));
  const std::string port = name.substr(name.find('[') + 1, name.find(']') - name.find('[') - 1);

  // Anyone who reaches the store keeps that file updated just ahead of the clock, with the
  // collector's own values; the port then counts symbol errors.
  Forger forger(daemon.port(), file);
  REQUIRE(forger.started());
  std::this_thread::sleep_for(1s);
  REQUIRE(forger.accepted() > 0);
  live.console("PerformanceSet \"" + node + "\"[" + port + "] PortCounters.SymbolErrorCounter=300");
  ConsoleUndo clear(
      live, "PerformanceSet \"" + node + "\"[" + port + "] PortCounters.SymbolErrorCounter=0");

  // The sweep judges the port from its own samples (CRITICAL), and says that the store refused
  // its update of the port (the old code: nothing, and the store kept the forged history).
  const ProcessRun seen = sweep();
  INFO(seen.out << seen.err);
  CHECK(seen.exit_code == 2);
  CHECK(seen.first_line().find("worst: " + name + " <-> ") != std::string::npos);
  CHECK(perf_value(seen, "store_overtaken") == 1);
  CHECK(seen.has("1 update refused: the store held a later sample of " + file + " ("));
  CHECK(seen.has("dropped as another collector's sample"));
  CHECK(seen.has((sharded ? "\\_[WARNING] 1 update refused" : "\\_[OK] 1 update refused")));
  CHECK((seen.first_line().find("refused by the store") != std::string::npos) == sharded);

  // Every sweep says it again while it goes on.
  const ProcessRun again = sweep();
  INFO(again.out << again.err);
  CHECK(perf_value(again, "store_overtaken") == 1);
  CHECK(again.has((sharded ? "\\_[WARNING] 1 update refused" : "\\_[OK] 1 update refused")));
  if (sharded) CHECK(again.exit_code != 0);
}
