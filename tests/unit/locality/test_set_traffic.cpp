// SPDX-License-Identifier: MIT
// The locality sums against flows whose paths are known: the link usage is what the traffic
// generator says each port sends, so gen/con/out/in and the localities must come out exactly.
#include <catch2/catch.hpp>
#include <map>
#include <set>
#include <tuple>

#include "fabric/graph.hpp"
#include "locality/node_sets.hpp"
#include "locality/traffic_locality.hpp"
#include "sim/fat_tree.hpp"
#include "sim/net_fabric.hpp"
#include "sim/traffic.hpp"

using namespace ibpm;

namespace {

constexpr double MB = 1e6;

struct Scenario {
  sim::FatTree tree;
  Fabric fabric;
  std::vector<sim::Flow> flows;
  std::vector<history::LinkUsage> usage;
};

// Usage of every cable from the flows: a_to_b is what a's port sends.
std::vector<history::LinkUsage> usage_of(const sim::FatTree& tree, const Fabric& fabric,
                                         const sim::TrafficPattern& traffic) {
  std::map<PortRef, sim::NetPort> net_port;
  const auto& nodes = tree.topology.nodes();
  for (std::size_t n = 0; n < nodes.size(); ++n)
    for (int p = 1; p <= nodes[n].port_count; ++p)
      net_port[{sim::net_node_guid(nodes[n].name, nodes[n].type), static_cast<PortNumber>(p)}] = {
          n, p};
  std::vector<history::LinkUsage> usage;
  for (std::size_t i = 0; i < fabric.links().size(); ++i) {
    const Link& link = fabric.links()[i];
    history::LinkUsage u;
    u.link = i;
    for (auto [d, from, to] :
         {std::tuple{&u.a_to_b, link.a, link.b}, std::tuple{&u.b_to_a, link.b, link.a}}) {
      d->from = from;
      d->to = to;
      d->measured = true;
      d->average_octets_s = traffic.xmit_rate(net_port.at(from));
    }
    usage.push_back(u);
  }
  return usage;
}

const locality::SetTraffic& row_of(const std::vector<locality::SetTraffic>& rows,
                                   const std::string& name) {
  for (const auto& r : rows)
    if (r.set->name == name) return r;
  FAIL("no set " << name);
  throw;
}

}  // namespace

TEST_CASE("locality of each leaf and pod follows from the flows") {
  auto tree = sim::make_fat_tree({.hosts = 216, .radix = 12, .levels = 3});
  Fabric fabric = sim::net_fabric(tree.topology);
  levels::FabricLevels levels(fabric, make_graph(fabric));
  locality::DownSets down(fabric, levels);
  const auto& lh = tree.leaf_hosts;
  // leaf01: local pairs; leaf02 -> leaf03 (same pod); leaf04 -> a leaf of another pod.
  std::vector<sim::Flow> flows{{lh[0][0], lh[0][1], 500 * MB},
                               {lh[0][1], lh[0][0], 500 * MB},
                               {lh[1][0], lh[2][0], 200 * MB},
                               {lh[3][0], lh.back()[0], 100 * MB},
                               {lh[3][1], lh[3][2], 300 * MB}};
  sim::TrafficPattern traffic(tree.topology, flows);
  auto usage = usage_of(tree, fabric, traffic);
  auto sets = locality::subtree_sets(fabric, down, nullptr);
  auto rows = locality::set_traffic(fabric, down, sets, usage, nullptr);

  const auto& leaf1 = row_of(rows, tree.leaves()[0]);
  CHECK(leaf1.gen == Approx(1000 * MB));
  CHECK(*leaf1.l == Approx(1));
  const auto& leaf2 = row_of(rows, tree.leaves()[1]);
  CHECK(leaf2.out == Approx(200 * MB));
  CHECK(*leaf2.l_gen == Approx(0));
  CHECK(!leaf2.l_con);  // it receives nothing; l is still defined, since it sends
  const auto& leaf4 = row_of(rows, tree.leaves()[3]);
  CHECK(*leaf4.l_gen == Approx(1 - 100.0 / 400));
  CHECK(*leaf4.l == Approx(1 - 100.0 / (400 + 300)));
  for (const auto& r : rows) {
    INFO(r.set->name);
    CHECK(!r.transit);
    CHECK(r.unmeasured == 0);
  }
  // The first pod holds leaf02 and leaf03: that flow stays inside it; leaf04's remote one leaves.
  for (const auto& r : rows)
    if (r.set->level == 2 && std::find(r.set->hosts.begin(), r.set->hosts.end(),
                                       fabric.index_of(sim::net_node_guid(
                                           lh[1][0], NodeType::ca))) != r.set->hosts.end()) {
      CHECK(r.out == Approx(100 * MB));
      CHECK(*r.l_gen == Approx(1 - 100.0 / 1600));
    }
  // Every flow stays inside the whole tree.
  CHECK(*rows.front().l == Approx(1));
}

TEST_CASE("a set whose parts meet only outside it is flagged, an idle one has no locality") {
  auto tree = sim::make_fat_tree({.hosts = 72, .radix = 12});
  Fabric fabric = sim::net_fabric(tree.topology);
  levels::FabricLevels levels(fabric, make_graph(fabric));
  locality::DownSets down(fabric, levels);
  const auto& lh = tree.leaf_hosts;
  sim::TrafficPattern traffic(tree.topology, {{lh[0][0], lh[2][0], 100 * MB}});
  auto usage = usage_of(tree, fabric, traffic);
  locality::NodeSet split;
  split.name = "leaf01 and leaf03";
  for (std::size_t leaf : {0u, 2u})
    for (const auto& host : lh[leaf])
      split.hosts.push_back(fabric.index_of(sim::net_node_guid(host, NodeType::ca)));
  locality::add_inner_switches(split, fabric, down);
  locality::NodeSet idle = split;
  idle.name = "leaf05";
  idle.hosts.clear();
  for (const auto& host : lh[4])
    idle.hosts.push_back(fabric.index_of(sim::net_node_guid(host, NodeType::ca)));
  locality::add_inner_switches(idle, fabric, down);

  std::vector<locality::NodeSet> sets{split, idle};
  auto rows = locality::set_traffic(fabric, down, sets, usage, nullptr);
  CHECK(rows[0].transit);
  CHECK(rows[0].note.find("meet only outside") != std::string::npos);
  CHECK(rows[0].out == Approx(100 * MB));  // the flow is local to the set, yet leaves it
  CHECK(!rows[1].transit);
  CHECK(!rows[1].l);
  CHECK(rows[1].note.find("idle") != std::string::npos);
}

TEST_CASE("a set that only sends has no l_con, whatever trickles in") {
  auto tree = sim::make_fat_tree({.hosts = 216, .radix = 12, .levels = 3});
  Fabric fabric = sim::net_fabric(tree.topology);
  levels::FabricLevels levels(fabric, make_graph(fabric));
  locality::DownSets down(fabric, levels);
  const auto& lh = tree.leaf_hosts;
  // leaf02 sends a job's data to leaf03 and receives only a management trickle (2 kB/s).
  std::vector<sim::Flow> flows{{lh[1][0], lh[2][0], 200 * MB}, {lh[2][1], lh[1][1], 2000}};
  sim::TrafficPattern traffic(tree.topology, flows);
  auto usage = usage_of(tree, fabric, traffic);
  auto sets = locality::subtree_sets(fabric, down, nullptr);
  auto rows = locality::set_traffic(fabric, down, sets, usage, nullptr);
  const auto& leaf2 = row_of(rows, tree.leaves()[1]);
  CHECK(leaf2.con == Approx(2000));
  CHECK(*leaf2.l_gen == Approx(0));
  CHECK_FALSE(leaf2.l_con);
  CHECK(leaf2.l);
  const auto& leaf3 = row_of(rows, tree.leaves()[2]);
  CHECK_FALSE(leaf3.l_gen);
  CHECK(*leaf3.l_con == Approx(0));
}

TEST_CASE("hosts with no rate in the window are unknown, never idle") {
  auto tree = sim::make_fat_tree({.hosts = 72, .radix = 12});
  Fabric fabric = sim::net_fabric(tree.topology);
  levels::FabricLevels levels(fabric, make_graph(fabric));
  locality::DownSets down(fabric, levels);
  sim::TrafficPattern traffic(tree.topology, {});
  auto usage = usage_of(tree, fabric, traffic);
  for (auto& u : usage) u.a_to_b.measured = u.b_to_a.measured = false;  // no samples yet
  auto sets = locality::subtree_sets(fabric, down, nullptr);
  REQUIRE_FALSE(sets.empty());
  for (const auto& row : locality::set_traffic(fabric, down, sets, usage, nullptr)) {
    INFO(row.set->name);
    CHECK(row.no_history);
    CHECK(!row.l);
    CHECK(row.note.find("idle") == std::string::npos);
    CHECK(row.note.find("no history in this window") != std::string::npos);
  }
}
