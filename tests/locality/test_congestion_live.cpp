// SPDX-License-Identifier: MIT
// ibpm-congestion on ibsim against the congestion model's truth. Flows are routed along the
// forwarding tables OpenSM programmed (as ibpm-routes --refresh reads them into
// STATE_DIR/routes.lft), the model cuts them where a port cannot carry them and says which
// ports are roots and which are victims; the data counters are set to the delivered rates and
// PortXmitWait to the time each port waited, check_ib_fabric sweeps them into RRD files a few
// seconds apart, and ibpm-congestion must name the model's root, its victims (precision and
// recall at least 0.95) and the jobs that cause and suffer the tree.
#include <catch2/catch.hpp>
#include <chrono>
#include <ctime>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <sstream>
#include <thread>
#include <utility>

#include "dump/ibnetdiscover_parser.hpp"
#include "fabric/types.hpp"
#include "routes/lft_file.hpp"
#include "sim/congested_traffic.hpp"
#include "sim/lft_paths.hpp"
#include "sim/traffic.hpp"
#include "sim/traffic_truth.hpp"
#include "support/live_fabric.hpp"
#include "support/simulator.hpp"

using namespace ibpm;
using namespace ibpm::test;
using nlohmann::json;

namespace {

constexpr double GB = 1e9;
// One PortXmitWait tick is a microsecond for the model, the sweeps and the analysis alike: a
// port that waits half the time adds 500,000 a second, and the 32-bit counter lasts hours (at
// the default tick, the time of 4 octets on 4x HDR, it would be full in under two seconds).
constexpr double kTickNs = 1000;
const std::string kTick = "1000";

// 36 hosts, six per leaf (leaf01: cn0001..cn0006, leaf02: cn0007.., ...), 25 GB/s links.
std::string host(int n) {
  char name[16];
  std::snprintf(name, sizeof name, "cn%04d", n);
  return name;
}

using PortKey = std::pair<std::string, int>;  // guid, port

// The running fabric as a discovery reads it and the tables ibpm-routes wrote to the state dir.
struct Routed {
  Fabric fabric;
  routes::ForwardingTables tables;

  std::vector<std::vector<sim::NetPort>> paths(LiveFabric& live,
                                               const std::vector<sim::Flow>& flows) const {
    return sim::lft_paths(live.tree.topology, fabric, tables, flows);
  }
};

Routed refresh_routes(LiveFabric& live, const StateDir& state) {
  const ProcessRun run = live.run("ibpm-routes", {"--refresh", "--state-dir", state.path()});
  INFO(run.out << run.err);
  REQUIRE(run.exit_code == 0);
  std::string dump;
  REQUIRE(live.fabric.run_client({"ibnetdiscover"}, &dump) == 0);
  std::istringstream in(dump);
  return {dump::parse_ibnetdiscover(in, "ibnetdiscover").fabric,
          routes::read_lft_file(routes::lft_file_path(state.path()))};
}

struct Outcome {
  json truth;     // the model's, as ibpm-sim traffic --truth writes it
  json analysis;  // ibpm-congestion --format json
};

// Sets the counters of the flows as the model delivers them and sweeps, as
// test_locality_live does: a first sweep makes the files, then five rounds of a pause, the
// counters set and a sweep; the window starts after the second of them. Then ibpm-congestion
// over that window (with `congestion_args` added).
Outcome sweep_and_analyse(LiveFabric& live, const StateDir& state, const Routed& routed,
                          const std::vector<sim::Flow>& flows,
                          const std::vector<std::string>& congestion_args = {}) {
  const sim::NetTopology& topology = live.tree.topology;
  const auto paths = routed.paths(live, flows);
  const sim::TrafficPattern demanded(topology, flows, paths);
  const sim::CongestedTraffic congested = sim::congest(topology, demanded);
  const sim::TrafficPattern delivered(topology, sim::delivered_flows(flows, congested.outcome),
                                      paths);
  auto set_counters = [&](double seconds) {
    std::vector<std::string> commands = delivered.counter_commands(seconds);
    for (std::string& c : sim::xmit_wait_commands(topology, congested, seconds, kTickNs))
      commands.push_back(std::move(c));
    live.fabric.console(commands);
  };

  const std::vector<std::string> sweep{
      "--state-dir", state.path(), "--no-syslog", "--rrd-step", "1", "--xmit-wait-tick", kTick};
  {
    const ProcessRun first = live.run("check_ib_fabric", sweep);
    INFO(first.out << first.err);
    REQUIRE(first.exit_code == 0);
  }
  std::optional<std::chrono::steady_clock::time_point> t0;
  std::time_t first_sweep = 0;
  double seconds = 0;
  for (int k = 0; k <= 4; ++k) {
    std::this_thread::sleep_for(std::chrono::seconds(4));
    const auto now = std::chrono::steady_clock::now();
    if (!t0) t0 = now;
    seconds = 1 + std::chrono::duration<double>(now - *t0).count();
    set_counters(seconds);
    const ProcessRun run = live.run("check_ib_fabric", sweep);
    INFO(run.out << run.err);
    // WARNING or CRITICAL where ports wait: the sweep ran all the same (UNKNOWN, 3, when not).
    REQUIRE(run.exit_code <= 2);
    if (k == 1) first_sweep = std::time(nullptr) + 1;
  }
  const std::string window = std::to_string(std::time(nullptr) - first_sweep);

  std::map<std::string, Guid> guid_by_name;
  for (const Node& node : routed.fabric.nodes()) guid_by_name.emplace(node.description, node.guid);
  const std::string truth_file = state.path() + "/truth.json";
  {
    std::ofstream(truth_file) << sim::traffic_truth_json(topology, congested, flows, guid_by_name,
                                                         seconds, kTickNs);
  }
  std::ifstream truth_in(truth_file);
  Outcome outcome{json::parse(truth_in), {}};

  std::vector<std::string> args{"--state-dir", state.path(), "--window",         window,
                                "--format",    "json",       "--xmit-wait-tick", kTick};
  args.insert(args.end(), congestion_args.begin(), congestion_args.end());
  const ProcessRun run = live.run("ibpm-congestion", args);
  INFO(run.out << run.err);
  REQUIRE(run.exit_code == 0);
  outcome.analysis = json::parse(run.out);
  return outcome;
}

std::set<PortKey> truth_ports(const json& truth, const std::string& role) {
  std::set<PortKey> ports;
  for (const json& p : truth["ports"])
    if (p["role"] == role) ports.emplace(p["guid"].get<std::string>(), p["port"].get<int>());
  return ports;
}

std::set<PortKey> analysis_ports(const json& analysis, const std::string& role) {
  std::set<PortKey> ports;
  for (const json& p : analysis["ports"])
    if (p["role"] == role) ports.emplace(p["guid"].get<std::string>(), p["port"].get<int>());
  return ports;
}

PortKey key(const json& port) { return {port["guid"].get<std::string>(), port["port"].get<int>()}; }

std::string describe(const std::set<PortKey>& ports) {
  std::string out;
  for (const auto& [guid, port] : ports) out += " " + guid + "[" + std::to_string(port) + "]";
  return out;
}

// Precision and recall of the analysis' victims against the truth's.
void check_victims(const std::set<PortKey>& truth, const std::set<PortKey>& found) {
  std::size_t both = 0;
  for (const PortKey& p : found) both += truth.contains(p) ? 1 : 0;
  INFO("truth:" << describe(truth));
  INFO("found:" << describe(found));
  REQUIRE(!truth.empty());
  REQUIRE(!found.empty());
  CHECK(static_cast<double>(both) / static_cast<double>(found.size()) >= 0.95);
  CHECK(static_cast<double>(both) / static_cast<double>(truth.size()) >= 0.95);
}

bool contains(const json& list, const std::string& word) {
  for (const json& w : list)
    if (w == word) return true;
  return false;
}

}  // namespace

TEST_CASE("ibpm-congestion names the model's incast root, its victims and the jobs behind it") {
  IBPM_REQUIRE_SIMULATOR();
#ifdef __SANITIZE_ADDRESS__
  // As test_locality_live: the rates (here the root's utilization, read against the busy
  // threshold) need the same delay between setting the counters and every sweep.
  IBPM_SKIP("timing-sensitive: not run under AddressSanitizer");
#endif
  LiveFabric live = LiveFabric::start();
  StateDir state("congestion-incast");
  const Routed routed = refresh_routes(live, state);

  // Five senders of 10 GB/s into cn0001's 25 GB/s: one on its own leaf, two on leaf02, one each
  // on leaf03 and leaf04. Each gets 5 GB/s; no spine downlink carries more than four of them.
  std::vector<sim::Flow> flows;
  const std::vector<int> senders{2, 7, 8, 13, 19};
  for (int s : senders) flows.push_back({host(s), host(1), 10 * GB});
  // A bystander: cn0009 (leaf02, not a sender) to a host of leaf05 or leaf06 (no senders there)
  // that leaf02 reaches through the uplink the incast leaves leaf02 by: its route shares that
  // one victim and nothing else of the tree; its 1 GB/s is not cut.
  const auto incast_paths = routed.paths(live, {{host(7), host(1), 10 * GB}});
  const sim::NetPort incast_uplink = incast_paths[0].at(1);
  std::optional<int> partner;
  for (int b = 25; b <= 36 && !partner; ++b) {
    const auto path = routed.paths(live, {{host(9), host(b), 1 * GB}})[0];
    if (path.at(1) == incast_uplink) partner = b;
  }
  REQUIRE(partner);
  flows.push_back({host(9), host(*partner), 1 * GB});

  std::string members = host(1);
  for (int s : senders) members += "," + host(s);
  const std::string jobs = state.path() + "/jobs.txt";
  std::ofstream(jobs) << "101 " << members << "\n102 " << host(9) << "," << host(*partner) << "\n";

  const Outcome outcome = sweep_and_analyse(live, state, routed, flows, {"--jobs", jobs});
  const json& truth = outcome.truth;
  const json& analysis = outcome.analysis;
  INFO(analysis.dump(1));

  // The truth as worked by hand: one root, leaf01's port to cn0001; every sender cut to 5 GB/s;
  // the bystander whole.
  const std::set<PortKey> roots = truth_ports(truth, "root");
  REQUIRE(roots.size() == 1);
  const PortKey root = *roots.begin();
  REQUIRE(root.first == live.guid_of("leaf01"));
  CHECK(live.peer_name("leaf01", root.second) == "cn0001[1]");
  for (const json& f : truth["flows"]) {
    if (f["to"] == host(1))
      CHECK(f["delivered"].get<double>() == Approx(5 * GB));
    else
      CHECK(f["delivered"].get<double>() == Approx(1 * GB));
  }

  // The analysis: that root, one tree, the truth's victims.
  CHECK(analysis_ports(analysis, "root") == roots);
  REQUIRE(analysis["trees"].size() == 1);
  const json& tree = analysis["trees"][0];
  CHECK(key(tree["root"]) == root);
  check_victims(truth_ports(truth, "victim"), analysis_ports(analysis, "victim"));
  std::set<PortKey> tree_victims;
  for (const json& v : tree["victims"]) tree_victims.insert(key(v));
  CHECK(tree_victims == analysis_ports(analysis, "victim"));
  // The shared uplink is one of them.
  CHECK(tree_victims.contains({live.guid_of("leaf02"), incast_uplink.port}));

  // The incast's job causes the tree; the bystander's only suffers it.
  CHECK(contains(tree["cause_jobs"], "101"));
  CHECK_FALSE(contains(tree["suffer_jobs"], "101"));
  CHECK(contains(tree["suffer_jobs"], "102"));
  CHECK_FALSE(contains(tree["cause_jobs"], "102"));
}

TEST_CASE("ibpm-congestion finds no congestion where the model cuts no flow") {
  IBPM_REQUIRE_SIMULATOR();
#ifdef __SANITIZE_ADDRESS__
  IBPM_SKIP("timing-sensitive: not run under AddressSanitizer");
#endif
  LiveFabric live = LiveFabric::start();
  StateDir state("congestion-none");
  const Routed routed = refresh_routes(live, state);

  // The incast's senders at 4 GB/s (20 of cn0001's 25 GB/s), and pairs between leaf05 and
  // leaf06 hosts at 8 GB/s both ways: even all three on one uplink would fit in it.
  std::vector<sim::Flow> flows;
  for (int s : {2, 7, 8, 13, 19}) flows.push_back({host(s), host(1), 4 * GB});
  for (int i = 0; i < 3; ++i) {
    flows.push_back({host(25 + i), host(31 + i), 8 * GB});
    flows.push_back({host(31 + i), host(25 + i), 8 * GB});
  }

  const Outcome outcome = sweep_and_analyse(live, state, routed, flows);
  INFO(outcome.analysis.dump(1));
  CHECK(truth_ports(outcome.truth, "root").empty());
  CHECK(truth_ports(outcome.truth, "victim").empty());
  for (const json& f : outcome.truth["flows"])
    CHECK(f["delivered"].get<double>() == f["demand"].get<double>());

  // History there is, and in it no root, no tree, no victim.
  CHECK_FALSE(outcome.analysis.contains("note"));
  CHECK(outcome.analysis["ports"].empty());
  CHECK(outcome.analysis["trees"].empty());
}
