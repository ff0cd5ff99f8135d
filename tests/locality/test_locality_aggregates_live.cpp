// SPDX-License-Identifier: MIT
// The sweeps' per-subtree aggregates on ibsim: two shards sweep known flows (check_ib_fabric
// --shard 1/2 and 2/2 into one state folder), shard 2 is taken over halfway (its sample record
// gone, as a collector that starts with none: it carries on from the store's files), and
// ibpm-locality through the aggregates must give the per-port report's sums (--per-port) and
// the flows' localities, reading a few files per subtree instead of one per port.
#include <catch2/catch.hpp>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <thread>

#include "sim/traffic.hpp"
#include "support/live_fabric.hpp"
#include "support/process.hpp"
#include "support/rrdcached_daemon.hpp"
#include "support/simulator.hpp"
#include "sweep/csv_table.hpp"

using namespace ibpm;
using namespace ibpm::test;

namespace {

constexpr double MB = 1e6;

std::string host(int n) {
  char name[16];
  std::snprintf(name, sizeof name, "cn%04d", n);
  return name;
}

// leaf01 local, leaf02 -> leaf03 across the spines, leaf04 half and half.
std::vector<sim::Flow> flows() {
  std::vector<sim::Flow> f;
  for (int i = 1; i <= 6; ++i) f.push_back({host(i), host(i % 6 + 1), 200 * MB});
  for (int i = 0; i < 6; ++i) f.push_back({host(7 + i), host(13 + i), 100 * MB});
  f.push_back({host(19), host(20), 300 * MB});
  f.push_back({host(21), host(31), 300 * MB});
  return f;
}

using Table = std::map<std::string, std::map<std::string, std::string>>;

Table by_set(const std::string& dir, const std::string& csv) {
  std::ofstream(dir + "/report.csv") << csv;
  Table table;
  for (const auto& row : sweep::test::read_csv(dir + "/report.csv").rows)
    table[row.at("set")] = row;
  return table;
}

double number(const std::map<std::string, std::string>& row, const std::string& column) {
  return std::stod(row.at(column));
}

// The RRD files a run opened (strace), or nullopt without strace.
std::optional<std::size_t> rrd_files_opened(const std::vector<std::string>& argv,
                                            const std::string& log) {
  if (!std::filesystem::exists("/usr/bin/strace")) return std::nullopt;
  std::vector<std::string> traced{"/usr/bin/strace", "-f", "-e", "trace=open,openat", "-o", log};
  traced.insert(traced.end(), argv.begin(), argv.end());
  const ProcessRun run = run_process(traced);
  if (run.exit_code != 0) return std::nullopt;
  std::ifstream in(log);
  std::set<std::string> files;
  for (std::string line; std::getline(in, line);) {
    const auto end = line.find(".rrd\"");
    const auto start = line.find('"');
    if (end != std::string::npos && start < end) files.insert(line.substr(start, end - start));
  }
  return files.size();
}

// Sweeps the flows as two shards into `state` (through `store`: extra check options, such as a
// central store's --rrdcached), shard 2 taken over halfway, and checks that ibpm-locality
// through the aggregates gives the per-port report's sums and the flows' localities. Returns
// the window the reports were asked for.
std::string aggregates_equal_per_port(LiveFabric& live, const StateDir& state,
                                      const std::vector<std::string>& store) {
  const auto f = flows();
  sim::TrafficPattern traffic(live.tree.topology, f);
  const auto sweep = [&](const std::string& shard) {
    std::vector<std::string> args{"--state-dir", state.path(), "--no-syslog", "--rrd-step",
                                  "1",           "--shard",    shard};
    args.insert(args.end(), store.begin(), store.end());
    const ProcessRun run = live.run("check_ib_fabric", args);
    INFO(run.out << run.err);
    REQUIRE(run.exit_code == 0);
    CHECK(run.out.find("subtree aggregates") == std::string::npos);  // all written
  };
  sweep("1/2");
  sweep("2/2");
  std::optional<std::chrono::steady_clock::time_point> t0;
  std::time_t first = 0;
  for (int k = 0; k <= 5; ++k) {
    std::this_thread::sleep_for(std::chrono::seconds(4));
    const auto now = std::chrono::steady_clock::now();
    if (!t0) t0 = now;
    live.fabric.console(
        traffic.counter_commands(1 + std::chrono::duration<double>(now - *t0).count()));
    if (k == 3)  // shard 2 taken over: its next collector has no sample record of its own
      std::filesystem::remove(state.path() + "/samples/shard-2-of-2.rec");
    sweep("1/2");
    sweep("2/2");
    if (k == 1) first = std::time(nullptr) + 1;
  }
  const std::string window = std::to_string(std::time(nullptr) - first);
  std::vector<std::string> args{"--state-dir", state.path(), "--window", window};
  args.insert(args.end(), store.begin(), store.end());
  auto with = [&](std::vector<std::string> more) {
    more.insert(more.begin(), args.begin(), args.end());
    return more;
  };

  const ProcessRun table = live.run("ibpm-locality", args);
  INFO(table.out << table.err);
  REQUIRE(table.exit_code == 0);
  CHECK(table.has("Read from: per-subtree aggregates (2 scopes, 14 files)"));
  const ProcessRun per_port_table = live.run("ibpm-locality", with({"--per-port"}));
  CHECK(per_port_table.has("Read from: per-port files\n"));

  const ProcessRun aggregated = live.run("ibpm-locality", with({"--format", "csv"}));
  const ProcessRun per_port = live.run("ibpm-locality", with({"--format", "csv", "--per-port"}));
  REQUIRE(aggregated.exit_code == 0);
  REQUIRE(per_port.exit_code == 0);
  const Table a = by_set(state.path(), aggregated.out);
  const Table p = by_set(state.path(), per_port.out);
  REQUIRE(a.size() == 7);
  REQUIRE(p.size() == 7);
  for (const auto& [name, row] : p) {
    INFO(name);
    REQUIRE(a.contains(name));
    for (const char* column : {"gen_octets_s", "con_octets_s", "out_octets_s", "in_octets_s"})
      CHECK(number(a.at(name), column) ==
            Approx(number(row, column)).epsilon(0.01).margin(0.1 * MB));
  }
  // The flows' truth: leaf01 local, leaf02 remote, leaf04 half its data away.
  CHECK(number(a.at("leaf01"), "l") == Approx(1).margin(0.01));
  CHECK(number(a.at("leaf02"), "l_gen") == Approx(0).margin(0.01));
  CHECK(number(a.at("leaf04"), "l_gen") == Approx(0.5).margin(0.01));
  return window;
}

}  // namespace

TEST_CASE("ibpm-locality through two shards' aggregates equals the per-port report") {
  IBPM_REQUIRE_SIMULATOR();
#ifdef __SANITIZE_ADDRESS__
  IBPM_SKIP("timing-sensitive: not run under AddressSanitizer");
#endif
  LiveFabric live = LiveFabric::start();
  StateDir state("locality-aggregates");
  const std::string window = aggregates_equal_per_port(live, state, {});

  // The count guard: the aggregates' report opens files per subtree and scope (7 x 2), the
  // per-port one every cabled port's.
  const auto opened =
      rrd_files_opened({bin("ibpm-locality"), "--state-dir", state.path(), "--window", window},
                       state.path() + "/aggregated.strace");
  const auto opened_per_port = rrd_files_opened(
      {bin("ibpm-locality"), "--state-dir", state.path(), "--window", window, "--per-port"},
      state.path() + "/per-port.strace");
  if (!opened || !opened_per_port) IBPM_SKIP("no strace to count the files opened");
  CHECK(*opened <= 14);
  CHECK(*opened_per_port >= 36 * 2);
}

TEST_CASE("ibpm-locality through a central store's aggregates equals its per-port report") {
  IBPM_REQUIRE_SIMULATOR();
#ifdef __SANITIZE_ADDRESS__
  IBPM_SKIP("timing-sensitive: not run under AddressSanitizer");
#endif
  if (!std::filesystem::exists(kRrdcached)) IBPM_SKIP("rrdcached is not installed");
  LiveFabric live = LiveFabric::start();
  StateDir state("locality-aggregates-central");
  // The store as docs/operators.md runs it (TCP, its own -P list with LIST): the collectors and
  // the report name files relative to its base, and this host never sees them.
  Rrdcached store(std::filesystem::path(state.path()) / "store", Listen::tcp, Folders::made,
                  "BATCH,UPDATE,CREATE,FLUSH,PENDING,INFO,LAST,FETCH,LIST");
  REQUIRE(store.wait_until_listening());
  aggregates_equal_per_port(live, state, {"--rrdcached", store.address()});
  CHECK_FALSE(std::filesystem::exists(state.path() + "/aggregates"));
}
