// SPDX-License-Identifier: MIT
// The congestion analysis on a fat tree of 8 hosts (4 leaves of 2 hosts, 2 spines) with min-hop
// forwarding tables, the egress loads written by hand as max-min sharing would make them: an
// incast, a hot uplink, no congestion, two trees at once, a victim of two roots, and a tip that
// waits itself.
#include <catch2/catch.hpp>
#include <set>

#include "analysis/congestion_analysis.hpp"
#include "congestion_fixture.hpp"
#include "routes/job_routes.hpp"

using namespace ibpm;
using namespace ibpm::analysis;

namespace {

using SmallTree = test::RoutedTree;

EgressLoad load(double utilization, double wait) {
  EgressLoad load;  // (members set one by one: -Wmissing-field-initializers)
  load.utilization = utilization;
  load.wait_share = wait;
  return load;
}

std::set<PortRef> ports_with(const CongestionReport& report, CongestionRole role) {
  std::set<PortRef> found;
  for (const CongestedPort& p : report.ports)
    if (p.role == role) found.insert(p.port);
  return found;
}

std::set<PortRef> victims_of(const CongestionReport& report, const CongestionTree& tree) {
  std::set<PortRef> found;
  for (std::size_t v : tree.victims) found.insert(report.ports[v].port);
  return found;
}

const CongestionTree& tree_of(const CongestionReport& report, const PortRef& root) {
  for (const CongestionTree& tree : report.trees)
    if (report.ports[tree.root].port == root) return tree;
  FAIL("no tree with that root");
  throw std::logic_error("unreachable");
}

// The incast of cn0001 (leaf01), cn0003 (leaf02) and cn0005 (leaf03) into cn0008 (leaf04[2]):
// each sender gets a third of the link; the senders, their leaves' uplinks and the spine's port
// down to leaf04 wait, leaf04[2] is full and its host drains it.
struct Incast {
  PortRef up1, up2, up3, down, root;
  EgressLoads loads;

  explicit Incast(const SmallTree& tree, bool third_sender = true) {
    up1 = tree.egress_toward("leaf01", "cn0008");
    up2 = tree.egress_toward("leaf02", "cn0008");
    up3 = tree.egress_toward("leaf03", "cn0008");
    const std::string spine = tree.peer_node(up1);
    REQUIRE(tree.peer_node(up2) == spine);  // one uplink index per destination on every leaf
    down = tree.egress_toward(spine, "cn0008");
    root = tree.egress_toward("leaf04", "cn0008");
    REQUIRE(root == tree.port("leaf04", 2));
    const double share = third_sender ? 1.0 / 3 : 0.5;
    loads[tree.host("cn0001")] = load(share, 0.6);
    loads[tree.host("cn0003")] = load(share, 0.6);
    loads[up1] = load(share, 0.5);
    loads[up2] = load(share, 0.5);
    if (third_sender) {
      loads[tree.host("cn0005")] = load(share, 0.6);
      loads[up3] = load(share, 0.5);
    }
    loads[down] = load(1.0, 0.4);  // full, and it waits: followed on
    loads[root] = load(0.99, 0.01);
  }
};

}  // namespace

TEST_CASE("congestion: an incast's root is the leaf port to its host, its uplinks the victims") {
  const SmallTree tree;
  Incast incast(tree);
  // Busy without anyone waiting behind it (cn0002's own port): no root.
  incast.loads[tree.host("cn0002")] = load(0.95, 0.0);
  // Waits a little, under the threshold: no victim.
  incast.loads[tree.host("cn0004")] = load(0.2, 0.04);

  // Job "cause": cn0001 and cn0008, one of the incast's flows. Job "bystander": cn0002 and the
  // leaf02 host leaf01 reaches through the incast's uplink up1: its routes share the victims,
  // never the root.
  const std::string bystander_host =
      tree.egress_toward("leaf01", "cn0003") == incast.up1 ? "cn0003" : "cn0004";
  REQUIRE(tree.egress_toward("leaf01", bystander_host) == incast.up1);
  const std::vector<jobs::Job> jobs{{"cause", {"cn0001", "cn0008"}},
                                    {"bystander", {"cn0002", bystander_host}}};
  const auto job_ports =
      routes::job_directions(tree.map(), routes::job_endpoints(tree.map(), nullptr, jobs));

  const CongestionReport report =
      find_congestion(tree.map(), incast.loads, CongestionThresholds{}, &job_ports);
  CHECK(ports_with(report, CongestionRole::root) == std::set<PortRef>{incast.root});
  const std::set<PortRef> victims{tree.host("cn0001"), tree.host("cn0003"), tree.host("cn0005"),
                                  incast.up1,          incast.up2,          incast.up3,
                                  incast.down};
  CHECK(ports_with(report, CongestionRole::victim) == victims);
  REQUIRE(report.trees.size() == 1);
  const CongestionTree& only = report.trees[0];
  CHECK(report.ports[only.root].port == incast.root);
  CHECK(report.ports[only.root].lost_share == Approx(0.01));
  CHECK(*report.ports[only.root].utilization == Approx(0.99));
  CHECK(victims_of(report, only) == victims);
  CHECK(only.cause_jobs == std::vector<std::string>{"cause"});
  CHECK(only.suffer_jobs == std::vector<std::string>{"bystander"});
  for (const CongestedPort& p : report.ports) CHECK(p.trees == std::vector<std::size_t>{0});
}

TEST_CASE("congestion: a hot uplink is the root of the hosts that feed it") {
  const SmallTree tree;
  // cn0001 and cn0002 send to two hosts on other leaves that leaf01 reaches through one uplink:
  // each gets half of it; the hosts' ports wait, the uplink is full and the spine drains it.
  const PortRef hot = tree.egress_toward("leaf01", "cn0005");
  const std::string second = tree.egress_toward("leaf01", "cn0007") == hot ? "cn0007" : "cn0008";
  REQUIRE(tree.egress_toward("leaf01", second) == hot);
  EgressLoads loads;
  loads[tree.host("cn0001")] = load(0.5, 0.45);
  loads[tree.host("cn0002")] = load(0.5, 0.45);
  loads[hot] = load(1.0, 0.0);
  const std::string spine = tree.peer_node(hot);
  loads[tree.egress_toward(spine, "cn0005")] = load(0.5, 0.0);
  loads[tree.egress_toward(spine, second)] = load(0.5, 0.0);
  loads[tree.egress_toward("leaf03", "cn0005")] = load(0.5, 0.0);

  const CongestionReport report = find_congestion(tree.map(), loads, CongestionThresholds{});
  CHECK(ports_with(report, CongestionRole::root) == std::set<PortRef>{hot});
  REQUIRE(report.trees.size() == 1);
  CHECK(victims_of(report, report.trees[0]) ==
        std::set<PortRef>{tree.host("cn0001"), tree.host("cn0002")});
  CHECK(report.trees[0].cause_jobs.empty());  // no jobs given
}

TEST_CASE("congestion: demands under capacity give no root, no tree and no victim") {
  const SmallTree tree;
  EgressLoads loads;
  loads[tree.host("cn0001")] = load(0.8, 0.02);
  const PortRef up = tree.egress_toward("leaf01", "cn0008");
  const PortRef down = tree.egress_toward(tree.peer_node(up), "cn0008");
  loads[up] = load(0.8, 0.05);    // at the threshold, not above
  loads[down] = load(0.95, 0.0);  // full, nobody waits for it
  loads[tree.host("cn0006")] = load(0.3, 0.0);
  const CongestionReport report = find_congestion(tree.map(), loads, CongestionThresholds{});
  CHECK(report.ports.empty());
  CHECK(report.trees.empty());
  // A lower threshold makes cn0001 and leaf01's uplink wait: they lead to the full spine port
  // the uplink feeds.
  const CongestionReport strict =
      find_congestion(tree.map(), loads, CongestionThresholds{.wait = 0.01, .busy = 0.9});
  REQUIRE(strict.trees.size() == 1);
  CHECK(strict.ports[strict.trees[0].root].port == down);
  CHECK(victims_of(strict, strict.trees[0]) == std::set<PortRef>{tree.host("cn0001"), up});
}

TEST_CASE("congestion: two independent trees, each victim with its own root") {
  const SmallTree tree;
  Incast incast(tree, false);  // cn0001 and cn0003 into cn0008
  // cn0005 and cn0006 (leaf03) send to two hosts of leaf01 and leaf02 that leaf03 reaches
  // through one uplink: a hot uplink of its own.
  const PortRef hot = tree.egress_toward("leaf03", "cn0002");
  const std::string second = tree.egress_toward("leaf03", "cn0003") == hot ? "cn0003" : "cn0004";
  REQUIRE(tree.egress_toward("leaf03", second) == hot);
  incast.loads[tree.host("cn0005")] = load(0.5, 0.45);
  incast.loads[tree.host("cn0006")] = load(0.5, 0.45);
  incast.loads[hot] = load(1.0, 0.0);

  const CongestionReport report = find_congestion(tree.map(), incast.loads, {});
  CHECK(ports_with(report, CongestionRole::root) == std::set<PortRef>{incast.root, hot});
  REQUIRE(report.trees.size() == 2);
  // The incast's tree has more victims: it comes first.
  CHECK(report.ports[report.trees[0].root].port == incast.root);
  CHECK(victims_of(report, tree_of(report, incast.root)) ==
        std::set<PortRef>{tree.host("cn0001"), tree.host("cn0003"), incast.up1, incast.up2,
                          incast.down});
  CHECK(victims_of(report, tree_of(report, hot)) ==
        std::set<PortRef>{tree.host("cn0005"), tree.host("cn0006")});
  for (const CongestedPort& p : report.ports) CHECK(p.trees.size() == 1);
}

TEST_CASE("congestion: a victim whose routes reach two roots is in both trees") {
  const SmallTree tree;
  Incast incast(tree, false);
  // cn0001 also sends to cn0002 next to it, whose port is full: cn0001's routes reach both
  // roots, its uplink's only the incast's.
  const PortRef local = tree.egress_toward("leaf01", "cn0002");
  incast.loads[local] = load(1.0, 0.0);
  const CongestionReport report = find_congestion(tree.map(), incast.loads, {});
  CHECK(ports_with(report, CongestionRole::root) == std::set<PortRef>{incast.root, local});
  CHECK(victims_of(report, tree_of(report, local)) == std::set<PortRef>{tree.host("cn0001")});
  CHECK(victims_of(report, tree_of(report, incast.root)).count(tree.host("cn0001")) == 1);
  for (const CongestedPort& p : report.ports)
    if (p.port == incast.up1) CHECK(p.trees.size() == 1);
}

TEST_CASE("congestion: a waiting port with nothing congested beyond it is the tip itself") {
  const SmallTree tree;
  // cn0008 drains slowly: leaf04's port to it waits although it is far from full, and the
  // uplink feeding it waits for it.
  const PortRef slow = tree.egress_toward("leaf04", "cn0008");
  const PortRef up = tree.egress_toward("leaf01", "cn0008");
  const PortRef down = tree.egress_toward(tree.peer_node(up), "cn0008");
  EgressLoads loads;
  loads[slow] = load(0.3, 0.7);
  loads[down] = load(0.3, 0.6);
  loads[up] = load(0.3, 0.6);
  const CongestionReport report = find_congestion(tree.map(), loads, {});
  REQUIRE(report.trees.size() == 1);
  const CongestedPort& root = report.ports[report.trees[0].root];
  CHECK(root.port == slow);
  CHECK(root.role == CongestionRole::root);
  CHECK(root.lost_share == Approx(0.7));
  CHECK(victims_of(report, report.trees[0]) == std::set<PortRef>{up, down});
}

TEST_CASE("congestion: loads from the link usage, and whether any port has XmitWait") {
  history::LinkUsage link;
  link.a_to_b.from = {1, 1};
  link.a_to_b.measured = true;
  link.a_to_b.average_util = 0.5;
  link.a_to_b.xmit_wait_pct = 12.5;
  link.b_to_a.from = {2, 1};
  link.b_to_a.measured = true;
  link.b_to_a.average_util = 0.25;
  const EgressLoads loads = egress_loads({link});
  REQUIRE(loads.size() == 2);
  CHECK(*loads.at({1, 1}).utilization == Approx(0.5));
  CHECK(*loads.at({1, 1}).wait_share == Approx(0.125));
  CHECK_FALSE(loads.at({2, 1}).wait_share);
  CHECK(has_xmit_wait(loads));
  CHECK_FALSE(has_xmit_wait(egress_loads({})));
  link.a_to_b.xmit_wait_pct.reset();
  CHECK_FALSE(has_xmit_wait(egress_loads({link})));
}
