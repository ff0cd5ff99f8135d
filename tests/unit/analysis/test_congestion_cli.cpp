// SPDX-License-Identifier: MIT
// ibpm-congestion as operators run it, without a fabric: a fat tree of 8 hosts as an
// ibnetdiscover dump (--cache), min-hop tables in STATE_DIR/routes.lft, and five minutes of RRD
// history written by state::PortStore with an incast in it (cn0001, cn0003 and cn0005 into
// cn0008): the JSON names leaf04's port to cn0008 the root and the senders, their uplinks and
// the spine's port down to leaf04 its victims, and the jobs that cause and suffer it. Without
// XmitWait history it says so; bad input is one line and a non-zero exit; names from the fabric
// are escaped.
#include <algorithm>
#include <catch2/catch.hpp>
#include <chrono>
#include <ctime>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "congestion_fixture.hpp"
#include "dump/ibnetdiscover_writer.hpp"
#include "routes/lft_file.hpp"
#include "sim/process.hpp"
#include "state/port_store.hpp"
#include "support/direct_store.hpp"
#include "support/process.hpp"
#include "support/temp_dir.hpp"

using namespace ibpm;

namespace {

constexpr double kTickNs = 1;  // --xmit-wait-tick: one PortXmitWait tick is a nanosecond
constexpr int kSamples = 6;    // five whole 60 s rows

class CongestionCli {
 public:
  CongestionCli() {
    std::ostringstream dump;
    dump::write_ibnetdiscover(dump, tree_.fabric());
    std::ofstream(dump_path()) << dump.str();
    std::filesystem::create_directories(state_dir());
    write_lft_file(routes::lft_file_path(state_dir()), tree_.tables());
  }

  const analysis::test::RoutedTree& tree() const { return tree_; }
  std::string dump_path() const { return (tmp_.path() / "fabric.ibnetdiscover").string(); }
  std::string state_dir() const { return (tmp_.path() / "state").string(); }
  std::string file(const std::string& name) const { return (tmp_.path() / name).string(); }

  // Every 60 s over the last minutes, each port's PortXmitData and PortXmitWait advanced as its
  // utilization and wait share say; the ports in saturated_wait have a 32-bit PortXmitWait that
  // sits at its maximum from the second sample on (as the sweeps record it: unknown, and the
  // saturated gauge's bit).
  void write_history(const std::map<PortRef, std::pair<double, double>>& loads,
                     const std::set<PortRef>& saturated_wait = {}) const {
    state::PortStore store(state::test::direct_options(tmp_));
    const double capacity_words_s =
        static_cast<double>(link_capacity_bps(LinkWidth::x4, LinkSpeed::hdr)) / 8 / 4;
    const std::time_t start = (std::time(nullptr) / 60) * 60 - 60 * (kSamples + 1);
    for (const auto& [port, load] : loads) {
      state::PortRecord r;
      r.extended = r.all_extended = true;
      std::uint64_t data = 1000, wait = 1000;
      for (int i = 0; i < kSamples; ++i) {
        r.time = static_cast<double>(start + 60 * i);
        r.raw[state::source_index(counters::Counter::xmit_data)] = data;
        r.raw[state::source_index(counters::Counter::xmit_wait)] = wait;
        if (saturated_wait.count(port) && i > 0) {
          r.all_extended = false;  // 64-bit data, the 32-bit PortXmitWait
          r.raw[state::source_index(counters::Counter::xmit_wait)] = 0xFFFFFFFFu;
          r.saturated = counters::counter_bit(counters::Counter::xmit_wait);
        }
        store.write(port.node, port.port, r);
        data += static_cast<std::uint64_t>(load.first * capacity_words_s * 60);
        wait += static_cast<std::uint64_t>(load.second * 60 * 1e9 / kTickNs);
      }
    }
  }

  sim::CapturedRun run(std::vector<std::string> args) const {
    sim::SpawnRequest request;
    request.argv = {ibpm::test::bin("ibpm-congestion"),
                    "--cache",
                    dump_path(),
                    "--state-dir",
                    state_dir(),
                    "--window",
                    "900",
                    "--xmit-wait-tick",
                    "1"};
    request.argv.insert(request.argv.end(), args.begin(), args.end());
    return sim::run_captured(request, std::chrono::seconds(60));
  }

 private:
  ibpm::test::TempDir tmp_{"congestion-cli"};
  analysis::test::RoutedTree tree_;
};

std::size_t line_count(const std::string& text) {
  return std::count(text.begin(), text.end(), '\n');
}

// "leaf04[2]" of a port entry of the JSON.
std::string entry_name(const nlohmann::json& entry) {
  return entry["node"].get<std::string>() + "[" + std::to_string(entry["port"].get<int>()) + "]";
}

}  // namespace

TEST_CASE("ibpm-congestion names an incast's root, its victims and the jobs behind it") {
  const CongestionCli cli;
  const PortRef up1 = cli.tree().egress_toward("leaf01", "cn0008");
  const PortRef up2 = cli.tree().egress_toward("leaf02", "cn0008");
  const PortRef up3 = cli.tree().egress_toward("leaf03", "cn0008");
  const PortRef down = cli.tree().egress_toward(cli.tree().peer_node(up1), "cn0008");
  const PortRef root = cli.tree().egress_toward("leaf04", "cn0008");
  // Each sender gets a third of cn0008's link; everything before leaf04[2] waits for it.
  std::map<PortRef, std::pair<double, double>> loads;
  for (const char* sender : {"cn0001", "cn0003", "cn0005"})
    loads[cli.tree().host(sender)] = {0.33, 0.6};
  for (const PortRef& up : {up1, up2, up3}) loads[up] = {0.33, 0.5};
  loads[down] = {1.0, 0.4};
  loads[root] = {0.99, 0.0};
  loads[cli.tree().host("cn0002")] = {0.2, 0.01};  // waits a little: under the threshold
  cli.write_history(loads);
  // A job of the incast, and one on cn0002 and the leaf02 host leaf01 reaches through the
  // incast's uplink: it shares a victim, not the root.
  const std::string shared =
      cli.tree().egress_toward("leaf01", "cn0003") == up1 ? "cn0003" : "cn0004";
  REQUIRE(cli.tree().egress_toward("leaf01", shared) == up1);
  std::ofstream(cli.file("jobs.txt")) << "101 cn0001,cn0008\n102 cn0002," << shared << "\n";

  const auto run = cli.run({"--format", "json", "--jobs", cli.file("jobs.txt")});
  INFO(run.out << run.err);
  REQUIRE(run.exit_code == 0);
  const auto report = nlohmann::json::parse(run.out);
  std::set<std::string> roots, victims;
  for (const auto& port : report["ports"])
    (port["role"] == "root" ? roots : victims).insert(entry_name(port));
  CHECK(roots == std::set<std::string>{"leaf04[2]"});
  CHECK(victims == std::set<std::string>{"cn0001[1]", "cn0003[1]", "cn0005[1]",
                                         cli.tree().name(up1), cli.tree().name(up2),
                                         cli.tree().name(up3), cli.tree().name(down)});
  REQUIRE(report["trees"].size() == 1);
  const auto& tree = report["trees"][0];
  CHECK(entry_name(tree["root"]) == "leaf04[2]");
  CHECK(tree["root"]["role"] == "root");
  CHECK(tree["root"]["utilization"].get<double>() == Approx(0.99).margin(0.01));
  CHECK(tree["victims"].size() == 7);
  for (const auto& victim : tree["victims"]) {
    const PortRef port{*parse_guid(victim["guid"].get<std::string>()),
                       victim["port"].get<PortNumber>()};
    CHECK(victim["lost_share"].get<double>() == Approx(loads.at(port).second).margin(0.001));
  }
  CHECK(tree["cause_jobs"] == nlohmann::json::array({"101"}));
  CHECK(tree["suffer_jobs"] == nlohmann::json::array({"102"}));
  CHECK(report["ports"][0]["roots"].size() == 1);

  const auto table = cli.run({"--jobs", cli.file("jobs.txt")});
  REQUIRE(table.exit_code == 0);
  CHECK(table.out.find("root   leaf04[2] -> cn0008[1]") != std::string::npos);
  CHECK(table.out.find("cause:  101") != std::string::npos);
  const auto csv = cli.run({"--format", "csv"});
  REQUIRE(csv.exit_code == 0);
  CHECK(line_count(csv.out) == 1 + 8);  // header, the root, 7 victims
  CHECK(csv.out.find("\n1,root,leaf04,") != std::string::npos);
}

TEST_CASE("ibpm-congestion says when the window has no XmitWait history") {
  const CongestionCli cli;
  const auto table = cli.run({});
  INFO(table.out << table.err);
  CHECK(table.exit_code == 0);
  CHECK(table.out == "no XmitWait history in this window\n");
  const auto json = cli.run({"--format", "json"});
  REQUIRE(json.exit_code == 0);
  const auto report = nlohmann::json::parse(json.out);
  CHECK(report["note"] == "no XmitWait history in this window");
  CHECK(report["ports"].empty());
}

TEST_CASE("ibpm-congestion without congestion names no root and no victim") {
  const CongestionCli cli;
  cli.write_history({{cli.tree().host("cn0001"), {0.6, 0.01}},
                     {cli.tree().egress_toward("leaf01", "cn0008"), {0.95, 0.0}}});
  const auto json = cli.run({"--format", "json"});
  INFO(json.out << json.err);
  REQUIRE(json.exit_code == 0);
  const auto report = nlohmann::json::parse(json.out);
  CHECK(report["ports"].empty());
  CHECK(report["trees"].empty());
  const auto table = cli.run({});
  CHECK(table.out.find("No congestion") != std::string::npos);
}

TEST_CASE("ibpm-congestion refuses bad input with one line and a non-zero exit") {
  const CongestionCli cli;
  for (const auto& args : std::vector<std::vector<std::string>>{
           {"--wait-threshold", "2"},
           {"--busy-threshold", "x"},
           {"--jobs", cli.file("missing-jobs.txt")},
           {"--format", "xml"},
       }) {
    const auto run = cli.run(args);
    INFO(args[0] << ": " << run.out << run.err);
    CHECK(run.exit_code != 0);
    CHECK(run.out.empty());
    CHECK(line_count(run.err) >= 1);
  }
  std::filesystem::remove(routes::lft_file_path(cli.state_dir()));
  const auto no_routes = cli.run({});
  INFO(no_routes.err);
  CHECK(no_routes.exit_code == 1);
  CHECK(line_count(no_routes.err) == 1);
  CHECK(no_routes.err.rfind("ibpm-congestion: ", 0) == 0);
  CHECK(no_routes.err.find("ibpm-routes --refresh") != std::string::npos);
}

TEST_CASE("ibpm-congestion escapes names from the fabric in CSV and JSON") {
  const CongestionCli cli;
  const PortRef up = cli.tree().egress_toward("leaf01", "cn0008");
  cli.write_history({{cli.tree().host("cn0001"), {0.5, 0.5}}, {up, {1.0, 0.0}}});
  std::ofstream(cli.file("names.map"))
      << format_guid(cli.tree().host("cn0001").node) << " \"=SUM(1),\\x y\"\n";
  const auto csv = cli.run({"--node-name-map", cli.file("names.map"), "--format", "csv"});
  INFO(csv.out << csv.err);
  REQUIRE(csv.exit_code == 0);
  CHECK(csv.out.find(",victim,\"'=SUM(1),\\x y\",") != std::string::npos);
  const auto json = cli.run({"--node-name-map", cli.file("names.map"), "--format", "json"});
  REQUIRE(json.exit_code == 0);
  const auto report = nlohmann::json::parse(json.out);
  REQUIRE(report["trees"].size() == 1);
  CHECK(report["trees"][0]["victims"][0]["node"] == "=SUM(1),\\x y");
}

TEST_CASE(
    "ibpm-congestion counts a port whose 32-bit PortXmitWait sits at its maximum as waiting") {
  // leaf01's uplink toward cn0008 feeds the full spine port down to leaf04; its PortXmitWait
  // filled (0.69 s of waiting on 4x HDR at the real tick) and no rate of it is left, only the
  // saturated gauge. It waits behind that root all the same, its lost share a lower bound.
  const CongestionCli cli;
  const PortRef up = cli.tree().egress_toward("leaf01", "cn0008");
  const PortRef down = cli.tree().egress_toward(cli.tree().peer_node(up), "cn0008");
  cli.write_history({{up, {0.5, 0.3}}, {down, {1.0, 0.0}}, {cli.tree().host("cn0002"), {0.2, 0}}},
                    {up});
  const auto json = cli.run({"--format", "json"});
  INFO(json.out << json.err);
  REQUIRE(json.exit_code == 0);
  const auto report = nlohmann::json::parse(json.out);
  CHECK_FALSE(report.contains("note"));
  std::set<std::string> roots, victims;
  for (const auto& port : report["ports"]) {
    (port["role"] == "root" ? roots : victims).insert(entry_name(port));
    CHECK(port["wait_saturated"] == (entry_name(port) == cli.tree().name(up)));
  }
  CHECK(roots == std::set<std::string>{cli.tree().name(down)});
  CHECK(victims == std::set<std::string>{cli.tree().name(up)});
  const auto table = cli.run({});
  INFO(table.out);
  CHECK(table.out.find(">=0.0%") != std::string::npos);
  const auto csv = cli.run({"--format", "csv"});
  CHECK(csv.out.find(",wait_saturated\n") != std::string::npos);
}
