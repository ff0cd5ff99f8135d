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
#include <filesystem>
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

#ifdef __SANITIZE_ADDRESS__
constexpr bool kUnderAsan = true;
#else
constexpr bool kUnderAsan = false;
#endif

// Leaves a case that cannot run here: without the simulator, and under AddressSanitizer (as
// test_locality_live: the rates, here the root's utilization read against the busy threshold,
// need the same delay between setting the counters and every sweep).
#define IBPM_REQUIRE_LIVE_RATES() \
  IBPM_REQUIRE_SIMULATOR();       \
  if (kUnderAsan) IBPM_SKIP("timing-sensitive: not run under AddressSanitizer")

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
  json truth;                // the model's, as ibpm-sim traffic --truth writes it
  json analysis;             // ibpm-congestion --format json
  std::string sweep_output;  // the last check_ib_fabric's, long output and all
};

// The RRD step the sweeps make files with, and so how far apart they run. At 1 s they run a few
// seconds apart on the wall clock; at 60 s (check_ib_fabric's default step) each sweep, and the
// analysis after them, runs under libfaketime a minute further ahead than the one before, so
// five minutes of history take seconds and the files see real 60 s rows.
enum class Step { one_second, default_60s };

const char* const kFaketime = "/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1";

// The running fabric, a state dir and the routes in it: what every case starts from.
struct CongestionFabric {
  LiveFabric live = LiveFabric::start();
  StateDir state;
  Routed routed;

  explicit CongestionFabric(const std::string& name)
      : state("congestion-" + name), routed(refresh_routes(live, state)) {}

  std::vector<std::vector<sim::NetPort>> paths(const std::vector<sim::Flow>& flows) {
    return routed.paths(live, flows);
  }
  std::vector<sim::NetPort> path(const std::string& from, const std::string& to) {
    return paths({{from, to, 1 * GB}}).at(0);
  }
  // The guid and port of a port of the net topology, as the truth and the analysis name it.
  PortKey key_of(const sim::NetPort& port) {
    return {live.guid_of(live.tree.topology.nodes().at(port.node).name), port.port};
  }

  // bin/PROGRAM ARGS... as a client of the simulation, the clock `shift` seconds ahead.
  ProcessRun run_at(long shift, const std::string& program, const std::vector<std::string>& args) {
    if (shift == 0) return live.run(program, args);
    std::vector<std::string> argv{"env", "LD_PRELOAD=" + live.fabric.ld_preload() + ":" + kFaketime,
                                  "FAKETIME=+" + std::to_string(shift),
                                  "FAKETIME_DONT_FAKE_MONOTONIC=1", bin(program)};
    argv.insert(argv.end(), args.begin(), args.end());
    ProcessRun run;
    run.exit_code = live.fabric.run_client(argv, &run.out, &run.err);
    return run;
  }
};

// Sets the counters of the flows as the model delivers them and sweeps, as
// test_locality_live does: a first sweep makes the files, then five rounds of a pause, the
// counters set and a sweep; the window starts after the second of them. Then ibpm-congestion
// over that window (with `congestion_args` added). With quiet_rounds, that many rounds come
// first without the flows (the counters left alone), inside the window: it starts before the
// congestion, as "the last N minutes" do.
Outcome sweep_and_analyse(CongestionFabric& net, const std::vector<sim::Flow>& flows,
                          const std::vector<std::string>& congestion_args = {},
                          Step step = Step::one_second, int quiet_rounds = 0) {
  LiveFabric& live = net.live;
  const StateDir& state = net.state;
  const sim::NetTopology& topology = live.tree.topology;
  const auto paths = net.paths(flows);
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

  const bool faked = step == Step::default_60s;
  // At 60 s the sweeps keep check_ib_fabric's default --rrd-step and run a second apart on the
  // wall clock, each 60 s further ahead: the files see 61 s between samples.
  // --worst: every waiting port and the root in the long output, not the 10 worst.
  std::vector<std::string> sweep{"--state-dir", state.path(),       "--no-syslog", "--worst",
                                 "50",          "--xmit-wait-tick", kTick};
  if (!faked) sweep.insert(sweep.end(), {"--rrd-step", "1"});
  const std::chrono::seconds pause(faked ? 1 : 4);
  long shift = 0;  // seconds the clock of the next run is ahead
  {
    const ProcessRun first = net.run_at(shift, "check_ib_fabric", sweep);
    INFO(first.out << first.err);
    REQUIRE(first.exit_code == 0);
  }
  std::optional<std::chrono::steady_clock::time_point> t0;
  std::time_t first_sweep = 0;
  double seconds = 0;
  std::string last_sweep;
  for (int k = 0; k <= quiet_rounds + 4; ++k) {
    std::this_thread::sleep_for(pause);
    if (faked) shift += 60;
    const auto now = std::chrono::steady_clock::now();
    if (k >= quiet_rounds) {
      if (!t0) t0 = now;
      // The traffic started a second before the first round (as the sweeps' clock sees it).
      seconds = 1 + std::chrono::duration<double>(now - *t0).count() + (faked ? shift - 60 : 0);
      set_counters(seconds);
    }
    const ProcessRun run = net.run_at(shift, "check_ib_fabric", sweep);
    INFO(run.out << run.err);
    // WARNING or CRITICAL where ports wait: the sweep ran all the same (UNKNOWN, 3, when not).
    REQUIRE(run.exit_code <= 2);
    last_sweep = run.out;
    if (k == 1) first_sweep = std::time(nullptr) + shift + 1;
  }
  const std::string window = std::to_string(std::time(nullptr) + shift - first_sweep);

  std::map<std::string, Guid> guid_by_name;
  for (const Node& node : net.routed.fabric.nodes())
    guid_by_name.emplace(node.description, node.guid);
  const std::string truth_file = state.path() + "/truth.json";
  {
    std::ofstream(truth_file) << sim::traffic_truth_json(topology, congested, flows, guid_by_name,
                                                         seconds, kTickNs);
  }
  std::ifstream truth_in(truth_file);
  Outcome outcome{json::parse(truth_in), {}, last_sweep};

  std::vector<std::string> args{"--state-dir", state.path(), "--window",         window,
                                "--format",    "json",       "--xmit-wait-tick", kTick};
  args.insert(args.end(), congestion_args.begin(), congestion_args.end());
  const ProcessRun run = net.run_at(shift, "ibpm-congestion", args);
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

// The root each of the truth's victims waits for: the bottleneck of the cut flows that leave
// through it before reaching their bottleneck.
std::map<PortKey, std::set<PortKey>> truth_victim_roots(CongestionFabric& net, const json& truth,
                                                        const std::vector<sim::Flow>& flows) {
  const std::set<PortKey> victims = truth_ports(truth, "victim");
  const auto paths = net.paths(flows);
  std::map<PortKey, std::set<PortKey>> roots;
  for (std::size_t f = 0; f < flows.size(); ++f) {
    const json& bottleneck = truth["flows"][f]["bottleneck"];
    REQUIRE(truth["flows"][f]["to"] == flows[f].to);
    if (bottleneck.is_null()) continue;
    const PortKey root = key(bottleneck);
    for (const sim::NetPort& hop : paths[f]) {
      const PortKey port = net.key_of(hop);
      if (port == root) break;
      if (victims.contains(port)) roots[port].insert(root);
    }
  }
  return roots;
}

// The roots of the trees the analysis puts each victim in.
std::map<PortKey, std::set<PortKey>> analysis_victim_roots(const json& analysis) {
  std::map<PortKey, std::set<PortKey>> roots;
  for (const json& tree : analysis["trees"])
    for (const json& v : tree["victims"]) roots[key(v)].insert(key(tree["root"]));
  return roots;
}

std::string describe(const std::map<PortKey, std::set<PortKey>>& roots) {
  std::string out;
  for (const auto& [victim, of] : roots)
    out += describe(std::set<PortKey>{victim}) + " ->" + describe(of) + "\n";
  return out;
}

}  // namespace

namespace {

// The 60 s cases fake the clock with libfaketime: skipped without it.
#define IBPM_REQUIRE_FAKETIME()                                          \
  do {                                                                   \
    if (!std::filesystem::exists(kFaketime))                             \
      IBPM_SKIP("faketime is not installed (apt-get install faketime)"); \
  } while (false)

// The incast: five senders of 10 GB/s into cn0001's 25 GB/s, and a bystander job on one victim
// uplink; checked at the RRD step given.
void check_incast(Step step) {
  CongestionFabric net(step == Step::one_second ? "incast" : "incast-60s");

  // One sender on cn0001's own leaf, two on leaf02, one each on leaf03 and leaf04. Each gets
  // 5 GB/s; no spine downlink carries more than four of them.
  std::vector<sim::Flow> flows;
  const std::vector<int> senders{2, 7, 8, 13, 19};
  for (int s : senders) flows.push_back({host(s), host(1), 10 * GB});
  // A bystander: cn0009 (leaf02, not a sender) to a host of leaf05 or leaf06 (no senders there)
  // that leaf02 reaches through the uplink the incast leaves leaf02 by: its route shares that
  // one victim and nothing else of the tree; its 1 GB/s is not cut.
  const sim::NetPort incast_uplink = net.path(host(7), host(1)).at(1);
  std::optional<int> partner;
  for (int b = 25; b <= 36 && !partner; ++b)
    if (net.path(host(9), host(b)).at(1) == incast_uplink) partner = b;
  REQUIRE(partner);
  flows.push_back({host(9), host(*partner), 1 * GB});

  std::string members = host(1);
  for (int s : senders) members += "," + host(s);
  const std::string jobs = net.state.path() + "/jobs.txt";
  std::ofstream(jobs) << "101 " << members << "\n102 " << host(9) << "," << host(*partner) << "\n";

  const Outcome outcome = sweep_and_analyse(net, flows, {"--jobs", jobs}, step);
  const json& truth = outcome.truth;
  const json& analysis = outcome.analysis;
  INFO(analysis.dump(1));

  // The files have the step asked for, and history in the window.
  const std::string coverage = analysis["window"]["coverage"];
  CHECK_THAT(coverage,
             Catch::Contains(step == Step::one_second ? "(RRD step 1 s)" : "(RRD step 60 s)"));
  CHECK_THAT(coverage, Catch::StartsWith("history for"));

  // The truth as worked by hand: one root, leaf01's port to cn0001; every sender cut to 5 GB/s;
  // the bystander whole.
  const std::set<PortKey> roots = truth_ports(truth, "root");
  REQUIRE(roots.size() == 1);
  const PortKey root = *roots.begin();
  REQUIRE(root.first == net.live.guid_of("leaf01"));
  CHECK(net.live.peer_name("leaf01", root.second) == "cn0001[1]");
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
  CHECK(tree_victims.contains(net.key_of(incast_uplink)));

  // The sweep's long output names that root for the ports it lists as waiting over their
  // threshold, and the root says so.
  INFO(outcome.sweep_output);
  const std::string root_name = "leaf01[" + std::to_string(root.second) + "] -> cn0001[1]";
  CHECK(outcome.sweep_output.find("xmit_wait over threshold: root is " + root_name) !=
        std::string::npos);
  CHECK(outcome.sweep_output.find("congestion root: ") != std::string::npos);
  CHECK(outcome.sweep_output.find("roots are") == std::string::npos);

  // The incast's job causes the tree; the bystander's only suffers it.
  CHECK(contains(tree["cause_jobs"], "101"));
  CHECK_FALSE(contains(tree["suffer_jobs"], "101"));
  CHECK(contains(tree["suffer_jobs"], "102"));
  CHECK_FALSE(contains(tree["cause_jobs"], "102"));
}

}  // namespace

TEST_CASE("ibpm-congestion names the model's incast root, its victims and the jobs behind it") {
  IBPM_REQUIRE_LIVE_RATES();
  check_incast(Step::one_second);
}

TEST_CASE("ibpm-congestion names the incast's root and victims at the default 60 s RRD step") {
  IBPM_REQUIRE_LIVE_RATES();
  IBPM_REQUIRE_FAKETIME();
  check_incast(Step::default_60s);
}

void check_hot_uplink(Step step) {
  CongestionFabric net(step == Step::one_second ? "hot-uplink" : "hot-uplink-60s");

  // Three hosts of leaf01 send 15 GB/s each to a host of leaf02, of leaf03 and of leaf04 that
  // the tables route out of one and the same leaf01 uplink (OpenSM's tables send each
  // destination up through one port, so hosts at the same place on their leaves share it):
  // 45 GB/s asked of a 25 GB/s uplink, whose spine then spreads it over three leaves.
  const sim::NetPort uplink = net.path(host(2), host(7)).at(1);
  std::vector<sim::Flow> flows{{host(2), host(7), 15 * GB}};
  for (const auto& [sender, leaf] : std::vector<std::pair<int, int>>{{3, 3}, {4, 4}}) {
    std::optional<int> to;
    for (int h = 6 * (leaf - 1) + 1; h <= 6 * leaf && !to; ++h)
      if (net.path(host(sender), host(h)).at(1) == uplink) to = h;
    REQUIRE(to);
    flows.push_back({host(sender), host(*to), 15 * GB});
  }
  const Outcome outcome = sweep_and_analyse(net, flows, {}, step);
  const json& truth = outcome.truth;
  const json& analysis = outcome.analysis;
  INFO(analysis.dump(1));

  // By hand: the uplink is the one root, each flow gets a third of it, the senders' own ports
  // wait behind it, the spine's downlinks (8.3 GB/s each) are clean.
  const std::set<PortKey> roots = truth_ports(truth, "root");
  REQUIRE(roots == std::set<PortKey>{net.key_of(uplink)});
  CHECK(net.live.peer_name("leaf01", uplink.port).starts_with("spine"));
  for (const json& f : truth["flows"]) CHECK(f["delivered"].get<double>() == Approx(25 * GB / 3));
  std::set<PortKey> senders;
  for (const sim::Flow& f : flows) senders.insert(net.key_of(net.path(f.from, f.to).at(0)));
  CHECK(truth_ports(truth, "victim") == senders);

  // The analysis: that root, and its tree of the truth's victims.
  CHECK(analysis_ports(analysis, "root") == roots);
  REQUIRE(analysis["trees"].size() == 1);
  CHECK(key(analysis["trees"][0]["root"]) == net.key_of(uplink));
  check_victims(truth_ports(truth, "victim"), analysis_ports(analysis, "victim"));
  const auto found = analysis_victim_roots(analysis);
  INFO("found:\n" << describe(found));
  CHECK(found == truth_victim_roots(net, truth, flows));

  // The sweep's long output names the uplink as the senders' root.
  INFO(outcome.sweep_output);
  CHECK(outcome.sweep_output.find("xmit_wait over threshold: root is leaf01[" +
                                  std::to_string(uplink.port) + "] -> " +
                                  net.live.peer_name("leaf01", uplink.port)) != std::string::npos);
}

void check_two_trees(Step step) {
  CongestionFabric net(step == Step::one_second ? "two-trees" : "two-trees-60s");

  // Incast A into cn0001 (leaf01) from cn0002 (leaf01), cn0008, cn0009 (leaf02), cn0014
  // (leaf03); incast B into a host of leaf06 from a host of its own leaf, cn0020, cn0021
  // (leaf04) and cn0026 (leaf05): four senders of 10 GB/s each, 6.25 GB/s each delivered, no
  // spine downlink full (three of them, 18.75 GB/s). The sender leaves are apart, and B's
  // host is one the spine that brings cn0001 its traffic does not carry, so no port carries
  // both incasts: each tree is the truth's alone.
  const std::size_t spine_a = net.path(host(8), host(1)).at(2).node;
  std::optional<int> b;
  for (int h = 33; h <= 36 && !b; ++h)
    if (net.path(host(20), host(h)).at(2).node != spine_a) b = h;
  REQUIRE(b);
  std::vector<sim::Flow> flows;
  for (int s : {2, 8, 9, 14}) flows.push_back({host(s), host(1), 10 * GB});
  for (int s : {31, 20, 21, 26}) flows.push_back({host(s), host(*b), 10 * GB});

  const Outcome outcome = sweep_and_analyse(net, flows, {}, step);
  const json& truth = outcome.truth;
  const json& analysis = outcome.analysis;
  INFO(analysis.dump(1));

  // By hand: two roots, leaf01's port to cn0001 and leaf06's port to B's host.
  const PortKey root_a = net.key_of(net.path(host(2), host(1)).at(1));
  const PortKey root_b = net.key_of(net.path(host(31), host(*b)).at(1));
  CHECK(net.live.peer_name("leaf01", root_a.second) == "cn0001[1]");
  CHECK(net.live.peer_name("leaf06", root_b.second) == host(*b) + "[1]");
  REQUIRE(truth_ports(truth, "root") == std::set<PortKey>{root_a, root_b});
  for (const json& f : truth["flows"]) CHECK(f["delivered"].get<double>() == Approx(6.25 * GB));

  // The analysis: both roots, two trees, and every victim in the tree of its own root only.
  CHECK(analysis_ports(analysis, "root") == truth_ports(truth, "root"));
  CHECK(analysis["trees"].size() == 2);
  check_victims(truth_ports(truth, "victim"), analysis_ports(analysis, "victim"));
  const auto expected = truth_victim_roots(net, truth, flows);
  const auto found = analysis_victim_roots(analysis);
  INFO("truth:\n" << describe(expected));
  INFO("found:\n" << describe(found));
  for (const auto& [victim, of] : expected) REQUIRE(of.size() == 1);
  CHECK(found == expected);
}

void check_no_congestion(Step step) {
  CongestionFabric net(step == Step::one_second ? "none" : "none-60s");

  // The incast's senders at 4 GB/s (20 of cn0001's 25 GB/s), and pairs between leaf05 and
  // leaf06 hosts at 8 GB/s both ways: even all three on one uplink would fit in it.
  std::vector<sim::Flow> flows;
  for (int s : {2, 7, 8, 13, 19}) flows.push_back({host(s), host(1), 4 * GB});
  for (int i = 0; i < 3; ++i) {
    flows.push_back({host(25 + i), host(31 + i), 8 * GB});
    flows.push_back({host(31 + i), host(25 + i), 8 * GB});
  }

  const Outcome outcome = sweep_and_analyse(net, flows, {}, step);
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

TEST_CASE("ibpm-congestion finds the hot uplink two leaves' traffic shares as the root") {
  IBPM_REQUIRE_LIVE_RATES();
  check_hot_uplink(Step::one_second);
}

TEST_CASE("ibpm-congestion finds the hot uplink at the default 60 s RRD step") {
  IBPM_REQUIRE_LIVE_RATES();
  IBPM_REQUIRE_FAKETIME();
  check_hot_uplink(Step::default_60s);
}

TEST_CASE("ibpm-congestion puts each victim of two independent incasts in its own root's tree") {
  IBPM_REQUIRE_LIVE_RATES();
  check_two_trees(Step::one_second);
}

TEST_CASE("ibpm-congestion keeps two independent trees apart at the default 60 s RRD step") {
  IBPM_REQUIRE_LIVE_RATES();
  IBPM_REQUIRE_FAKETIME();
  check_two_trees(Step::default_60s);
}

TEST_CASE("ibpm-congestion finds no congestion where the model cuts no flow") {
  IBPM_REQUIRE_LIVE_RATES();
  check_no_congestion(Step::one_second);
}

TEST_CASE("ibpm-congestion finds no congestion at the default 60 s RRD step") {
  IBPM_REQUIRE_LIVE_RATES();
  IBPM_REQUIRE_FAKETIME();
  check_no_congestion(Step::default_60s);
}

TEST_CASE(
    "ibpm-congestion names the spine port an incast fills over a window that starts before it") {
  IBPM_REQUIRE_LIVE_RATES();
  CongestionFabric net("incast-window-before");

  // Four hosts each of leaf02, leaf03 and leaf04 send 5 GB/s to cn0001 (leaf01): each leaf's
  // uplink carries 20 of its 25 GB/s, and OpenSM's tables bring the twelve flows to leaf01
  // through one spine, whose 25 GB/s port down to leaf01 is asked 60.
  std::vector<sim::Flow> flows;
  for (int leaf : {2, 3, 4})
    for (int i = 1; i <= 4; ++i) flows.push_back({host(6 * (leaf - 1) + i), host(1), 5 * GB});
  // Five rounds without traffic, then the incast for the last five: the spine port is full in
  // every row the incast runs, and about half the window's average.
  const Outcome outcome = sweep_and_analyse(net, flows, {}, Step::one_second, 5);
  const json& truth = outcome.truth;
  const json& analysis = outcome.analysis;
  INFO(analysis.dump(1));

  // The truth: one root, the spine's port toward leaf01 (the first full port on every path).
  const PortKey spine_down = net.key_of(net.path(host(7), host(1)).at(2));
  REQUIRE(truth_ports(truth, "root") == std::set<PortKey>{spine_down});
  for (const json& p : analysis["ports"])
    if (key(p) == spine_down) CHECK(p["utilization"].get<double>() < 0.9);  // its average

  // The analysis: that root alone, and the truth's victims behind it.
  CHECK(analysis_ports(analysis, "root") == truth_ports(truth, "root"));
  check_victims(truth_ports(truth, "victim"), analysis_ports(analysis, "victim"));
  const auto found = analysis_victim_roots(analysis);
  INFO("found:\n" << describe(found));
  CHECK(found == truth_victim_roots(net, truth, flows));
}
