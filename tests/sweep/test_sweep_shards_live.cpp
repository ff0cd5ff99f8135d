// SPDX-License-Identifier: MIT
// Shards of a sweep on a live fabric: --shard K/N for K = 1..N poll disjoint sets of ports whose
// union is exactly the ports of one full sweep; --type narrows the sweep to switches or CAs; a
// switch whose ports pins split across two shards gets exactly one passive result from them; a
// re-poll of a node with --shard reads it only where the sweeps put it.
#include <catch2/catch.hpp>
#include <filesystem>
#include <map>
#include <set>
#include <sstream>

#include "support/check_output.hpp"
#include "support/live_fabric.hpp"
#include "support/rrd_files.hpp"
#include "support/simulator.hpp"
#include "support/text_files.hpp"
#include "sweep/csv_table.hpp"

using namespace ibpm::test;
using ibpm::sweep::test::read_csv;

namespace {

std::set<std::string> polled_ports(const StateDir& state, const std::string& csv) {
  std::set<std::string> ports;
  for (const auto& row : read_csv(state.path() + "/" + csv).rows) ports.insert(row.at("port_name"));
  return ports;
}

ProcessRun sweep(LiveFabric& live, const StateDir& state, const std::string& csv,
                 std::vector<std::string> more) {
  std::vector<std::string> args{"--state-dir", state.path(), "--no-syslog", "--csv",
                                state.path() + "/" + csv};
  args.insert(args.end(), more.begin(), more.end());
  return live.run("check_ib_fabric", args);
}

}  // namespace

TEST_CASE("Shards 1 to N of a sweep together poll every port of a full sweep exactly once") {
  IBPM_REQUIRE_SIMULATOR();
  LiveFabric live = LiveFabric::start();
  StateDir state("sweep-shards");
  const ProcessRun full = sweep(live, state, "full.csv", {});
  INFO(full.out);
  REQUIRE(full.exit_code == 0);
  const std::set<std::string> everything = polled_ports(state, "full.csv");
  REQUIRE(everything.size() == 144);

  const int n = 3;
  std::multiset<std::string> union_of_shards;
  for (int k = 1; k <= n; ++k) {
    const std::string csv = "shard" + std::to_string(k) + ".csv";
    const ProcessRun run =
        sweep(live, state, csv, {"--shard", std::to_string(k) + "/" + std::to_string(n)});
    INFO(run.out);
    CHECK(run.exit_code == 0);
    CHECK(run.first_line().rfind("IB FABRIC OK - shard " + std::to_string(k) + "/3: ", 0) == 0);
    const std::set<std::string> mine = polled_ports(state, csv);
    CHECK(mine.size() > 144 / n / 2);  // spread, not all on one collector
    CHECK(perf_value(run, "ports") == static_cast<double>(mine.size()));
    union_of_shards.insert(mine.begin(), mine.end());
  }
  CHECK(union_of_shards.size() == everything.size());  // disjoint
  CHECK(std::set<std::string>(union_of_shards.begin(), union_of_shards.end()) == everything);
}

TEST_CASE("The sweep can be narrowed to switch ports or to CA ports") {
  IBPM_REQUIRE_SIMULATOR();
  LiveFabric live = LiveFabric::start();
  StateDir state("sweep-types");
  const ProcessRun switches = sweep(live, state, "switches.csv", {"--type", "switches"});
  INFO(switches.out);
  CHECK(switches.exit_code == 0);
  const auto switch_ports = polled_ports(state, "switches.csv");
  CHECK(switch_ports.size() == 108);
  for (const std::string& p : switch_ports) CHECK(p.rfind("cn", 0) != 0);
  const ProcessRun cas = sweep(live, state, "cas.csv", {"--type", "cas"});
  CHECK(cas.exit_code == 0);
  const auto ca_ports = polled_ports(state, "cas.csv");
  CHECK(ca_ports.size() == 36);
  for (const std::string& p : ca_ports) CHECK(p.rfind("cn", 0) == 0);
}

TEST_CASE("A switch whose ports pins split across shards gets one passive result per sweep") {
  IBPM_REQUIRE_SIMULATOR();
  LiveFabric live = LiveFabric::start();
  StateDir state("sweep-shards-split");
  // leaf02: ports 1-2 to shard 2, the rest to shard 1 (which then reads most of its ports).
  const std::string delegation = state.path() + "/delegation";
  write_text(delegation, "shards 2\npin 2 leaf02 1-2\npin 1 leaf02 3-12\n");
  std::map<std::string, std::size_t> results;  // host -> results across both shards
  std::string leaf02;
  for (int k = 1; k <= 2; ++k) {
    const std::filesystem::path spool = state.path() + "/spool" + std::to_string(k);
    std::filesystem::create_directories(spool);
    const ProcessRun run = sweep(live, state, "split.csv",
                                 {"--shard", std::to_string(k) + "/2", "--delegation", delegation,
                                  "--nagios-spool", spool.string()});
    INFO(run.out);
    CHECK(run.exit_code == 0);
    // The shard that leaves leaf02 to the other one says so.
    if (k == 2) CHECK(run.has("(1 switches split across shards: their results from the shard"));
    for (const auto& entry : std::filesystem::directory_iterator(spool)) {
      if (entry.path().extension() == ".ok") continue;
      std::istringstream text(read_text(entry.path()));
      std::string host;
      for (std::string line; std::getline(text, line);) {
        if (line.rfind("host_name=", 0) == 0) ++results[host = line.substr(10)];
        if (host == "leaf02" && line.rfind("output=", 0) == 0) {
          CHECK(k == 1);
          leaf02 = line;
        }
      }
    }
  }
  CHECK(results.size() == 9);  // every switch
  for (const auto& [host, count] : results) {
    INFO(host);
    CHECK(count == 1);
  }
  INFO(leaf02);
  CHECK(leaf02.find("; ports 1-2 read by shard 2") != std::string::npos);
}

TEST_CASE(
    "A re-poll with --shard reads a switch only on the collector the sweeps' shards give it") {
  IBPM_REQUIRE_SIMULATOR();
  LiveFabric live = LiveFabric::start();
  StateDir state("sweep-shards-repoll");
  // Where the sweeps of two shards put each node's ports.
  std::map<std::string, std::set<int>> shards_of;
  std::map<std::string, int> ports_of;
  for (int k = 1; k <= 2; ++k) {
    const std::string csv = "shard" + std::to_string(k) + ".csv";
    const ProcessRun run = sweep(live, state, csv, {"--shard", std::to_string(k) + "/2"});
    INFO(run.out);
    REQUIRE(run.exit_code == 0);
    for (const auto& row : read_csv(state.path() + "/" + csv).rows) {
      const std::string& port = row.at("port_name");
      const std::string node = port.substr(0, port.find('['));
      shards_of[node].insert(k);
      ++ports_of[node];
    }
  }
  // A switch of shard 2's: a re-poll's one node, shared out among the nodes asked alone, fell to
  // shard 1 (and half of a switch's ports to each shard when it asked for two).
  std::string leaf;
  for (const auto& [node, shards] : shards_of)
    if (node.rfind("leaf", 0) == 0 && shards == std::set<int>{2}) leaf = node;
  REQUIRE_FALSE(leaf.empty());
  for (int k = 1; k <= 2; ++k) {
    const ProcessRun run =
        live.run("check_ib_fabric", {"--state-dir", state.path(), "--no-syslog", "--node", leaf,
                                     "--shard", std::to_string(k) + "/2"});
    INFO(leaf << ", shard " << k << ": " << run.out);
    if (k == 2) {
      CHECK(run.exit_code == 0);
      CHECK(perf_value(run, "ports") == static_cast<double>(ports_of[leaf]));
    } else {
      CHECK(run.exit_code == 3);
      CHECK(run.has("shard 1/2 holds none of the ports asked: another collector's"));
    }
  }
}
