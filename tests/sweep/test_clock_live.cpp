// SPDX-License-Identifier: MIT
// A clock that stepped back, and a central store that holds a sample dated in the future, on a
// live simulated fat tree: no rates are made up from a sample later than now, the files that
// cannot be written any more are UNKNOWN naming them and by how much, and a port whose file is
// gone takes a new baseline and says why, as does a port whose previous sample is less than the
// tolerance ahead. An update without a sample in the store is named once and written over, and
// ports handed back from another collector go on from its later samples. The clock is moved with
// Debian's libfaketime (preloaded after libumad2sim); the store is a real rrdcached over TCP,
// updated by an "attacker" through its socket.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <filesystem>
#include <optional>
#include <thread>

#include "state/port_record.hpp"
#include "state/rrd_layout.hpp"
#include "support/check_output.hpp"
#include "support/live_fabric.hpp"
#include "support/rrd_files.hpp"
#include "support/rrdcached_daemon.hpp"
#include "support/simulator.hpp"
#include "support/text_files.hpp"

using namespace ibpm::test;
namespace fs = std::filesystem;
using namespace std::chrono_literals;

namespace {

const char* const kFaketime = "/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1";
using ibpm::test::kRrdcached;

// bin/PROGRAM ARGS... as a client of the simulation with the clock `shift` ahead ("+1h").
ProcessRun run_shifted(LiveFabric& live, const std::string& shift, const std::string& program,
                       const std::vector<std::string>& args) {
  std::vector<std::string> argv{"env", "LD_PRELOAD=" + live.fabric.ld_preload() + ":" + kFaketime,
                                "FAKETIME=" + shift, "FAKETIME_DONT_FAKE_MONOTONIC=1",
                                bin(program)};
  argv.insert(argv.end(), args.begin(), args.end());
  ProcessRun run;
  run.exit_code = live.fabric.run_client(argv, &run.out, &run.err);
  return run;
}

std::vector<std::string> clock_sweep_args(const StateDir& state) {
  return {"--state-dir", state.path(), "--no-syslog", "--events-file", state.path() + "/events.log",
          "--worst",     "200"};
}

std::vector<std::string> port_args(const StateDir& state, std::vector<std::string> more = {}) {
  std::vector<std::string> args{"--state-dir", state.path(), "-n", "leaf01", "-p", "3"};
  args.insert(args.end(), more.begin(), more.end());
  return args;
}

using ibpm::test::free_loopback_port;

// One command to the daemon over TCP, as anyone who reaches it can send it; its answer line.
std::optional<std::string> send_raw(int port, const std::string& command) {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = htons(static_cast<std::uint16_t>(port));
  std::optional<std::string> answer;
  if (::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0) {
    const std::string line = command + "\n";
    if (::write(fd, line.data(), line.size()) == static_cast<ssize_t>(line.size())) {
      answer.emplace();
      char c = 0;
      while (::read(fd, &c, 1) == 1 && c != '\n') *answer += c;
    }
  }
  ::close(fd);
  return answer;
}

// rrdcached over TCP on the loopback, a central store with its base under `dir` (-b -B -R),
// stopped by its pid when the test ends.
class CentralStore {
 public:
  // On `port` (0: a free one), e.g. the port of a store killed before, over the same folders.
  explicit CentralStore(const fs::path& dir, int port = 0)
      : port_(port ? port : free_loopback_port()) {
    fs::create_directories(dir / "journal");
    fs::create_directories(dir / "base");
    daemon_.emplace(
        std::vector<std::string>{kRrdcached, "-g", "-l", address(), "-p", (dir / "pid").string(),
                                 "-j", (dir / "journal").string(), "-B", "-R", "-b",
                                 (dir / "base").string(), "-w", "3600", "-f", "7200"},
        dir / "rrdcached.log");
  }
  bool wait_until_listening() {
    for (int i = 0; i < 250; ++i) {
      if (send_raw(port_, "PING").value_or("").starts_with("0 PONG")) return true;
      std::this_thread::sleep_for(20ms);
    }
    return false;
  }
  std::string address() const { return "127.0.0.1:" + std::to_string(port_); }
  int port() const { return port_; }
  // SIGKILL: no flush, no last journal write.
  void kill() {
    ::kill(daemon_->pid(), SIGKILL);
    for (int i = 0; i < 250 && daemon_->running(); ++i) std::this_thread::sleep_for(20ms);
  }

 private:
  int port_;
  std::optional<BackgroundProcess> daemon_;
};

}  // namespace

TEST_CASE("A clock that stepped back makes no rates: files ahead of it are UNKNOWN, named") {
  IBPM_REQUIRE_SIMULATOR();
  if (!fs::exists(kFaketime)) IBPM_SKIP("faketime is not installed (apt-get install faketime)");
  LiveFabric live = LiveFabric::start();
  StateDir state("clock-back");

  // Two sweeps an hour ahead: a baseline and rates, every file updated an hour ahead.
  for (int i = 0; i < 2; ++i) {
    const ProcessRun ahead = run_shifted(live, "+1h", "check_ib_fabric", clock_sweep_args(state));
    INFO(ahead.out << ahead.err);
    REQUIRE(ahead.exit_code == 0);
  }
  const std::string rrd = state.port_rrd(live, "leaf01", 3);
  const double future = sample_time(rrd);
  REQUIRE(future > now_epoch_seconds() + 3500);

  // The clock is right again: no rate from the samples an hour ahead (the old code said
  // "rcv_util 86296.5 %"), each port UNKNOWN naming its file, which keeps its last update.
  const ProcessRun back = live.run("check_ib_fabric", clock_sweep_args(state));
  INFO(back.out << back.err);
  CHECK(back.exit_code == 3);
  CHECK(perf_value(back, "xmit_data").value_or(0) < 1e8);  // the old code made up 1 GB/s
  CHECK_FALSE(back.has("rcv_util"));
  CHECK_FALSE(back.has("xmit_util"));
  // One line for the ports that share the cause, naming their files (--worst 200: all of them).
  CHECK(back.has(" ports: state file: last update 3"));
  CHECK(back.has(" s ahead of the clock ("));
  CHECK(back.has(rrd));
  CHECK(sample_time(rrd) == future);

  // check_ib_port on the same file, with a record of its own from an hour ahead.
  REQUIRE(run_shifted(live, "+1h", "check_ib_port", port_args(state)).exit_code == 0);
  const ProcessRun port = live.run("check_ib_port", port_args(state));
  INFO(port.out << port.err);
  CHECK(port.exit_code == 3);
  CHECK(port.has(rrd + ": last update 3"));
  CHECK_FALSE(port.has("rcv "));

  // The operator removes the files: a new baseline that says why, then true rates.
  fs::remove_all(fs::path(rrd).parent_path());
  const ProcessRun baseline = live.run("check_ib_port", port_args(state));
  INFO(baseline.out << baseline.err);
  CHECK(baseline.exit_code == 0);
  CHECK(baseline.has("clock stepped back: previous sample 3"));
  CHECK(baseline.has(" s ahead, new baseline"));
  CHECK(sample_time(rrd) < now_epoch_seconds() + 2);
  std::this_thread::sleep_for(1s);
  const ProcessRun rates = live.run("check_ib_port", port_args(state));
  INFO(rates.out << rates.err);
  CHECK(rates.exit_code == 0);
  CHECK_FALSE(rates.has("baseline"));
  CHECK(perf_value(rates, "rcv_util").value_or(100) < 50);
}

TEST_CASE(
    "A clock that stepped back less than the tolerance gives a baseline, not a rate over 1 ms") {
  IBPM_REQUIRE_SIMULATOR();
  if (!fs::exists(kFaketime)) IBPM_SKIP("faketime is not installed (apt-get install faketime)");
  LiveFabric live = LiveFabric::start();
  StateDir state("clock-small-step");
  REQUIRE(run_shifted(live, "+1", "check_ib_port", port_args(state)).exit_code == 0);
  const std::string rrd = state.port_rrd(live, "leaf01", 3);
  const double ahead = sample_time(rrd);

  // A second back: the previous sample is still (less than a second) ahead. RRD takes this run's
  // sample just after it, but no rate comes from an interval of a millisecond.
  const ProcessRun back = live.run("check_ib_port", port_args(state));
  INFO(back.out << back.err);
  CHECK(back.exit_code == 0);
  CHECK(back.has("clock stepped back: previous sample 0."));
  CHECK(back.has(" s ahead, new baseline"));
  CHECK_FALSE(perf_value(back, "xmit_data").has_value());
  CHECK(sample_time(rrd) == Approx(ahead + 0.001).margin(1e-6));

  std::this_thread::sleep_for(2s);
  const ProcessRun rates = live.run("check_ib_port", port_args(state));
  INFO(rates.out << rates.err);
  CHECK(rates.exit_code == 0);
  CHECK_FALSE(rates.has("baseline"));
  CHECK(perf_value(rates, "rcv_util").value_or(100) < 50);
}

TEST_CASE("A central store sample dated 2100 makes the port UNKNOWN, not OK for ever") {
  IBPM_REQUIRE_SIMULATOR();
  if (!fs::exists(kRrdcached)) IBPM_SKIP("rrdcached is not installed (apt-get install rrdcached)");
  LiveFabric live = LiveFabric::start();
  StateDir state("clock-store");
  CentralStore store(fs::path(state.path()) / "store");
  REQUIRE(store.wait_until_listening());
  const int port = store.port();

  const std::vector<std::string> args = port_args(state, {"--rrdcached", store.address()});
  REQUIRE(live.run("check_ib_port", args).exit_code == 0);
  std::this_thread::sleep_for(1s);
  REQUIRE(live.run("check_ib_port", args).exit_code == 0);

  // Anyone who reaches the store: one update of the port dated 2100, then 500 symbol errors.
  const std::string file = live.guid_of("leaf01") + "/port3.rrd";
  ibpm::state::PortRecord forged;
  forged.time = 4102444800;
  const auto answer = send_raw(port, "UPDATE " + file + " " + ibpm::state::update_line(forged));
  REQUIRE(answer.value_or("").starts_with("0 "));
  live.console("PerformanceSet \"leaf01\"[3] PortCounters.SymbolErrorCounter=500");
  ConsoleUndo clear(live, "PerformanceSet \"leaf01\"[3] PortCounters.SymbolErrorCounter=0");

  for (int i = 0; i < 2; ++i) {
    const ProcessRun run = live.run("check_ib_port", args);
    INFO(run.out << run.err);
    CHECK(run.exit_code == 3);
    CHECK(run.has(file + ": last update "));
    CHECK(run.has(" s ahead of the clock"));
    CHECK_FALSE(run.has("collecting baseline"));
  }
}

TEST_CASE("An update without a sample in the central store is UNKNOWN once, then written over") {
  IBPM_REQUIRE_SIMULATOR();
  if (!fs::exists(kRrdcached)) IBPM_SKIP("rrdcached is not installed (apt-get install rrdcached)");
  LiveFabric live = LiveFabric::start();
  StateDir state("clock-blank");
  CentralStore store(fs::path(state.path()) / "store");
  REQUIRE(store.wait_until_listening());
  // One-second rows: the store's LAST tells an update a second later from this check's sample.
  const std::vector<std::string> args =
      port_args(state, {"--rrdcached", store.address(), "--rrd-step", "1"});
  REQUIRE(live.run("check_ib_port", args).exit_code == 0);
  std::this_thread::sleep_for(1100ms);
  REQUIRE(live.run("check_ib_port", args).exit_code == 0);
  std::this_thread::sleep_for(1100ms);

  // Anyone who reaches the store: an update dated now that holds no values (the old code took
  // the port's next run for a first sample, OK).
  const std::string file = live.guid_of("leaf01") + "/port3.rrd";
  std::string blank = std::to_string(static_cast<long long>(now_epoch_seconds()));
  for (std::size_t i = 0; i < ibpm::state::kSourceCount; ++i) blank += ":U";
  REQUIRE(send_raw(store.port(), "UPDATE " + file + " " + blank).value_or("").starts_with("0 "));
  std::this_thread::sleep_for(1100ms);

  const ProcessRun named = live.run("check_ib_port", args);
  INFO(named.out << named.err);
  CHECK(named.exit_code == 3);
  CHECK(named.has(file + ": the store's last update (at "));
  CHECK(named.has("holds no sample"));
  // This run's sample went in over it: the next run has its rates again.
  std::this_thread::sleep_for(1100ms);
  const ProcessRun next = live.run("check_ib_port", args);
  INFO(next.out << next.err);
  CHECK(next.exit_code == 0);
  CHECK_FALSE(next.has("baseline"));
  CHECK(perf_value(next, "rcv_util").has_value());
}

TEST_CASE("A central store that lost acknowledged samples is noticed: the hole is said once") {
  IBPM_REQUIRE_SIMULATOR();
  if (!fs::exists(kRrdcached)) IBPM_SKIP("rrdcached is not installed (apt-get install rrdcached)");
  LiveFabric live = LiveFabric::start();
  StateDir state("store-loss");
  const fs::path dir = fs::path(state.path()) / "store";
  auto store = std::make_unique<CentralStore>(dir);
  REQUIRE(store->wait_until_listening());
  const int port = store->port();
  std::vector<std::string> args = sweep_args(state);
  for (const char* more : {"--rrdcached", "", "--rrd-step", "1"}) args.push_back(more);
  args[args.size() - 3] = store->address();
  for (int i = 0; i < 3; ++i) {
    const ProcessRun run = live.run("check_ib_fabric", args);
    INFO(run.out << run.err);
    REQUIRE(run.exit_code == 0);
    CHECK_FALSE(run.has("the store lost"));
    std::this_thread::sleep_for(1100ms);
  }
  // Killed, and its journal lost with it (the worst a crash does): the files on disk hold only
  // what was written when they were made.
  store->kill();
  store.reset();
  fs::remove_all(dir / "journal");
  store = std::make_unique<CentralStore>(dir, port);
  REQUIRE(store->wait_until_listening());

  const ProcessRun noticed = live.run("check_ib_fabric", args);
  INFO(noticed.out << noticed.err);
  CHECK(noticed.exit_code == 0);  // the fabric is fine; rates go on from what the store kept
  const auto polled = perf_value(noticed, "ports_polled");
  REQUIRE(polled.has_value());
  const std::string ports = std::to_string(static_cast<int>(*polled));
  CHECK(noticed.has("the store lost samples it had taken for " + ports + " ports (up to "));
  CHECK(noticed.has("their history has a hole there"));
  std::this_thread::sleep_for(1100ms);
  const ProcessRun next = live.run("check_ib_fabric", args);
  INFO(next.out << next.err);
  CHECK(next.exit_code == 0);
  CHECK_FALSE(next.has("the store lost"));
}

TEST_CASE("Ports handed back from another collector go on from the store's later sample") {
  IBPM_REQUIRE_SIMULATOR();
  if (!fs::exists(kRrdcached)) IBPM_SKIP("rrdcached is not installed (apt-get install rrdcached)");
  // Every port checked every sweep, or a few a sweep (--store-check-every 1000): one of those
  // found overtaken makes the sweep check all the others.
  const std::string every = GENERATE(std::string("1"), std::string("1000"));
  LiveFabric live = LiveFabric::start();
  StateDir first("handback-a-" + every), second("handback-b-" + every);
  CentralStore store(fs::path(first.path()) / "store");
  REQUIRE(store.wait_until_listening());
  // Two collectors of the same ports, each with its own sample record, one central store.
  const auto args_of = [&store](const StateDir& state) {
    std::vector<std::string> args = clock_sweep_args(state);
    for (const char* more : {"--rrdcached", "", "--rrd-step", "1"}) args.push_back(more);
    args[args.size() - 3] = store.address();
    return args;
  };
  const auto first_args = [&] {
    std::vector<std::string> args = args_of(first);
    args.insert(args.end(),
                {"--store-check-every", every, "--openmetrics", first.path() + "/fabric.prom"});
    return args;
  };
  const auto sweep = [&live](const std::vector<std::string>& args) {
    std::this_thread::sleep_for(1100ms);
    return live.run("check_ib_fabric", args);
  };
  REQUIRE(sweep(first_args()).exit_code == 0);
  const ProcessRun steady = sweep(first_args());
  INFO(steady.out << steady.err);
  REQUIRE(steady.exit_code == 0);
  const double polled = perf_value(steady, "ports_polled").value_or(0);
  REQUIRE(polled > 8);
  CHECK(perf_value(steady, "store_checked") == (every == "1" ? polled : 8.0));

  // The second collector has the ports for a while (the first one's endpoint was down), and
  // sees 500 symbol errors on one port.
  REQUIRE(sweep(args_of(second)).exit_code == 0);
  live.console("PerformanceSet \"leaf01\"[3] PortCounters.SymbolErrorCounter=500");
  ConsoleUndo clear(live, "PerformanceSet \"leaf01\"[3] PortCounters.SymbolErrorCounter=0");
  const ProcessRun saw = sweep(args_of(second));
  INFO(saw.out << saw.err);
  CHECK((saw.exit_code == 1 || saw.exit_code == 2));

  // Handed back: the first collector's record is older than the store's files. Its rates go on
  // from the second collector's samples (the errors were seen and are not counted again), and
  // every port handed back is asked again with nothing taken from the old record.
  const ProcessRun back = sweep(first_args());
  INFO(back.out << back.err);
  CHECK(back.exit_code == 0);
  CHECK(perf_value(back, "store_checked") == polled);
  // The same count for Prometheus.
  const std::string metrics = read_text(first.path() + "/fabric.prom");
  CHECK(metrics.find("ibpm_sweep_store_checked{scope=\"fabric\"} " +
                     std::to_string(static_cast<long>(polled)) + "\n") != std::string::npos);
  CHECK_FALSE(back.has("baseline"));
  CHECK(perf_value(back, "xmit_data").has_value());
  CHECK(perf_value(back, "mads").value_or(0) > perf_value(steady, "mads").value_or(0));
}
