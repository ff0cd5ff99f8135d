// SPDX-License-Identifier: MIT
// The congestion model on a generated fat tree, without ibsim: link capacities from the active
// width and speed, an incast cut at the destination's leaf port, PortXmitWait values that the
// project's reading (ticks x tick over the interval) turns back into the model's lost share,
// flows routed along forwarding tables, and the truth written as JSON.
#include <catch2/catch.hpp>
#include <stdexcept>

#include "../routes/routing_fixture.hpp"
#include "counters/counter.hpp"
#include "routes/route_map.hpp"
#include "sim/congested_traffic.hpp"
#include "sim/fat_tree.hpp"
#include "sim/lft_paths.hpp"
#include "sim/net_fabric.hpp"
#include "sim/traffic_truth.hpp"
#include "support/json_reader.hpp"

using namespace ibpm;
using namespace ibpm::sim;

namespace {

// 8 hosts, 4 leaves of 2 hosts and 2 uplinks, 2 spines; 4x HDR: 25 GB/s per direction.
FatTree small_tree() {
  FatTreeOptions options;
  options.hosts = 8;
  options.radix = 4;
  return make_fat_tree(options);
}

constexpr double kHdr4x = 25e9;  // 200 Gb/s of data, in octets per second

NetPort port_of(const NetTopology& topology, const std::string& node, int port) {
  return {*topology.find_node(node), port};
}

// cn0003, cn0005 and cn0007 (three other leaves) send at line rate to cn0001.
std::vector<Flow> incast_to_cn0001() {
  return {{"cn0003", "cn0001", kHdr4x}, {"cn0005", "cn0001", kHdr4x}, {"cn0007", "cn0001", kHdr4x}};
}

}  // namespace

TEST_CASE("Congested traffic: a port's capacity is its link's active rate") {
  FatTree tree = small_tree();
  NetTopology& topology = tree.topology;
  const NetPort host = port_of(topology, "cn0001", 1);
  CHECK(egress_capacity(topology, host) == kHdr4x);
  // One end enabling 1x SDR brings the link up at 1x SDR: 2.5 Gb/s x 8/10 = 250 MB/s both ways.
  topology.set_setting(host, {LinkWidth::x1, LinkSpeed::sdr});
  CHECK(egress_capacity(topology, host) == 250e6);
  CHECK(egress_capacity(topology, *topology.peer(host)) == 250e6);
}

TEST_CASE("Congested traffic: an incast is cut at the destination's leaf port") {
  const FatTree tree = small_tree();
  const NetTopology& topology = tree.topology;
  const TrafficPattern demanded(topology, incast_to_cn0001());
  const CongestedTraffic congested = congest(topology, demanded);

  const NetPort root = *topology.peer(port_of(topology, "cn0001", 1));
  for (const FlowOutcome& f : congested.outcome.flows) {
    CHECK(f.delivered == Approx(kHdr4x / 3));
    REQUIRE(f.bottleneck);
    CHECK(congested.ports[*f.bottleneck] == root);
  }
  std::size_t roots = 0, victims = 0;
  for (std::size_t p = 0; p < congested.ports.size(); ++p) {
    const PortOutcome& port = congested.outcome.ports[p];
    if (congested.ports[p] == root) {
      CHECK(port.role == PortRole::root);
      CHECK(port.lost_share == 0);
      ++roots;
    } else {
      // Every other port a flow leaves from lies before the root.
      CHECK(port.role == PortRole::victim);
      ++victims;
    }
  }
  CHECK(roots == 1);
  CHECK(victims == congested.ports.size() - 1);
  // A sending host: 1/3 sent, 2/3 of line rate short: min(1 - 1/3, 2/3).
  for (const char* host : {"cn0003", "cn0005", "cn0007"}) {
    const NetPort out = port_of(topology, host, 1);
    for (std::size_t p = 0; p < congested.ports.size(); ++p)
      if (congested.ports[p] == out)
        CHECK(congested.outcome.ports[p].lost_share == Approx(2.0 / 3));
  }

  SECTION("the data counters follow the delivered rates, on the same paths") {
    std::vector<std::vector<NetPort>> paths;
    for (std::size_t f = 0; f < 3; ++f) paths.push_back(demanded.path(f));
    const TrafficPattern delivered(topology, delivered_flows(demanded.flows(), congested.outcome),
                                   paths);
    CHECK(delivered.xmit_rate(root) == Approx(kHdr4x));
    CHECK(delivered.xmit_rate(port_of(topology, "cn0003", 1)) == Approx(kHdr4x / 3));
    CHECK(delivered.rcv_rate(port_of(topology, "cn0001", 1)) == Approx(kHdr4x));
  }
}

TEST_CASE("Congested traffic: PortXmitWait reads back as the lost share") {
  // Default tick: 32 bits / 200 Gb/s = 0.16 ns. A quarter of 60 s: 15 s / 0.16 ns.
  CHECK(xmit_wait_ticks(0.25, 60, kHdr4x) == 93'750'000'000ULL);
  // An operator's tick of 100 ns: 15 s / 100 ns.
  CHECK(xmit_wait_ticks(0.25, 60, kHdr4x, 100.0) == 150'000'000ULL);
  CHECK(xmit_wait_ticks(0, 60, kHdr4x) == 0);

  // The project's reading: ticks per second x default tick.
  const double capacity = 250e6;  // 1x SDR
  const std::uint64_t ticks = xmit_wait_ticks(0.4, 30, capacity);
  CHECK(static_cast<double>(ticks) / 30 * counters::default_xmit_wait_tick(capacity * 8) ==
        Approx(0.4));

  PortOutcome victim;
  victim.capacity = kHdr4x;
  victim.lost_share = 0.25;
  CHECK(xmit_wait_counter(victim, 60) == 4294967295ULL);  // the 32-bit counter stops full
  CHECK(xmit_wait_counter(victim, 60, 100.0) == 150'000'000ULL);
}

TEST_CASE("Congested traffic: console commands set PortXmitWait of every egress port") {
  const FatTree tree = small_tree();
  const NetTopology& topology = tree.topology;
  const CongestedTraffic congested =
      congest(topology, TrafficPattern(topology, incast_to_cn0001()));
  const auto commands = xmit_wait_commands(topology, congested, 10, 1000.0);
  REQUIRE(commands.size() == congested.ports.size());
  const std::string root_name =
      topology.node(topology.peer(port_of(topology, "cn0001", 1))->node).name;
  // The root waits 0; cn0003 waits 2/3 of 10 s in ticks of 1 us.
  CHECK(std::find(commands.begin(), commands.end(),
                  "PerformanceSet \"" + root_name + "\"[1] PortCounters.PortXmitWait=0") !=
        commands.end());
  CHECK(std::find(commands.begin(), commands.end(),
                  "PerformanceSet \"cn0003\"[1] PortCounters.PortXmitWait=6666667") !=
        commands.end());
}

TEST_CASE("Congested traffic: flows follow the forwarding tables") {
  const FatTree tree = small_tree();
  const NetTopology& topology = tree.topology;
  const Fabric fabric = net_fabric(topology);
  const routes::ForwardingTables tables = routes::test::min_hop_tables(fabric);
  const std::vector<Flow> flows{{"cn0001", "cn0008", 1e9}, {"cn0004", "cn0003", 1e9}};
  const auto paths = lft_paths(topology, fabric, tables, flows);
  REQUIRE(paths.size() == 2);

  // cn0001 -> leaf of cn0001 -> the uplink its table names for cn0008's LID -> spine -> leaf
  // of cn0008 -> cn0008.
  const Node& src_leaf = routes::test::node_named(fabric, tree.leaves()[0]);
  const Node& dst = routes::test::node_named(fabric, "cn0008");
  const PortNumber up = tables.find(src_leaf.guid)->egress(*dst.port(1)->lid);
  REQUIRE(paths[0].size() == 4);
  CHECK(paths[0][0] == port_of(topology, "cn0001", 1));
  CHECK(paths[0][1] == port_of(topology, tree.leaves()[0], up));
  CHECK(topology.node(paths[0][2].node).name ==
        topology.node(topology.peer(paths[0][1])->node).name);
  CHECK(*topology.peer(paths[0][3]) == port_of(topology, "cn0008", 1));
  // cn0004 and cn0003 share leaf 2: host port, then the leaf's port to cn0003.
  REQUIRE(paths[1].size() == 2);
  CHECK(*topology.peer(paths[1][1]) == port_of(topology, "cn0003", 1));

  SECTION("a switch whose table is missing stops the flow, named") {
    routes::ForwardingTables partial = tables;
    partial.switches.erase(src_leaf.guid);
    CHECK_THROWS_WITH(lft_paths(topology, fabric, partial, {flows[0]}),
                      Catch::Contains("cn0001 -> cn0008: the route stops at " + tree.leaves()[0] +
                                      ": forwarding table not read"));
  }
  SECTION("a host the fabric lacks is named") {
    CHECK_THROWS_WITH(lft_paths(topology, fabric, tables, {{"cn0001", "cn0099", 1}}),
                      Catch::Contains("cn0099"));
  }
}

TEST_CASE("Congested traffic: the truth as JSON") {
  const FatTree tree = small_tree();
  const NetTopology& topology = tree.topology;
  const std::vector<Flow> flows = incast_to_cn0001();
  const CongestedTraffic congested = congest(topology, TrafficPattern(topology, flows));
  const std::string root_name =
      topology.node(topology.peer(port_of(topology, "cn0001", 1))->node).name;
  const std::map<std::string, Guid> guids{{root_name, 0x7cfe900000000001ULL}};

  const std::string text = traffic_truth_json(topology, congested, flows, guids, 10, 1000.0);
  const test::Json json = test::JsonReader(text).document();
  CHECK(json["seconds"].number == 10);
  const auto& ports = json["ports"].items;
  CHECK(ports.size() == congested.ports.size());
  std::size_t roots = 0;
  for (const test::Json& p : ports) {
    if (p["role"].string != "root") {
      CHECK(p["role"].string == "victim");
      CHECK(p["guid"].kind == test::Json::Kind::null);
      continue;
    }
    ++roots;
    CHECK(p["node"].string == root_name);
    CHECK(p["guid"].string == "0x7cfe900000000001");
    CHECK(p["port"].number == 1);
    CHECK(p["lost_share"].number == 0);
    CHECK(p["utilization"].number == Approx(1));
    CHECK(p["offered"].number == Approx(3 * kHdr4x));
    CHECK(p["xmit_wait"].number == 0);
  }
  CHECK(roots == 1);
  const auto& out_flows = json["flows"].items;
  REQUIRE(out_flows.size() == 3);
  CHECK(out_flows[0]["from"].string == "cn0003");
  CHECK(out_flows[0]["to"].string == "cn0001");
  CHECK(out_flows[0]["demand"].number == kHdr4x);
  CHECK(out_flows[0]["delivered"].number == Approx(kHdr4x / 3));
  CHECK(out_flows[0]["bottleneck"]["node"].string == root_name);
  CHECK(out_flows[0]["bottleneck"]["port"].number == 1);
}

TEST_CASE("Congested traffic: paths must match the flows") {
  const FatTree tree = small_tree();
  CHECK_THROWS_AS(TrafficPattern(tree.topology, incast_to_cn0001(), {}), std::invalid_argument);
}
