// SPDX-License-Identifier: MIT

#include <catch2/catch.hpp>
#include <map>
#include <set>
#include <string>

#include "sim/fat_tree.hpp"

using namespace ibpm;
using namespace ibpm::sim;

namespace {

FatTree tree(int hosts, int radix, int levels = 2, int down = 1, int up = 1) {
  FatTreeOptions o;
  o.hosts = hosts;
  o.radix = radix;
  o.levels = levels;
  o.oversubscription_down = down;
  o.oversubscription_up = up;
  return make_fat_tree(o);
}

// Links per (node, peer) pair, by name.
std::map<std::pair<std::string, std::string>, int> link_counts(const NetTopology& t) {
  std::map<std::pair<std::string, std::string>, int> counts;
  for (const NetLink& l : t.links()) {
    const std::string& a = t.node(l.a.node).name;
    const std::string& b = t.node(l.b.node).name;
    ++counts[{a, b}];
    ++counts[{b, a}];
  }
  return counts;
}

std::map<std::string, int> cabled_ports(const NetTopology& t) {
  std::map<std::string, int> ports;
  for (const NetLink& l : t.links()) {
    ++ports[t.node(l.a.node).name];
    ++ports[t.node(l.b.node).name];
  }
  return ports;
}

// Every (node, port) appears in at most one link.
void require_ports_unique(const NetTopology& t) {
  std::set<std::pair<std::size_t, int>> used;
  for (const NetLink& l : t.links()) {
    REQUIRE(used.insert({l.a.node, l.a.port}).second);
    REQUIRE(used.insert({l.b.node, l.b.port}).second);
    REQUIRE(l.a.port >= 1);
    REQUIRE(l.a.port <= t.node(l.a.node).port_count);
    REQUIRE(l.b.port >= 1);
    REQUIRE(l.b.port <= t.node(l.b.node).port_count);
  }
}

void require_hosts_single_linked(const FatTree& ft) {
  auto ports = cabled_ports(ft.topology);
  for (const std::string& host : ft.hosts) REQUIRE(ports[host] == 1);
  for (std::size_t h = 0; h < ft.hosts.size(); ++h) {
    auto node = ft.topology.find_node(ft.hosts[h]);
    REQUIRE(node);
    auto peer = ft.topology.peer({*node, 1});
    REQUIRE(peer);
    REQUIRE(ft.topology.node(peer->node).name == ft.leaves()[ft.host_leaf[h]]);
  }
}

}  // namespace

TEST_CASE("two-level fat tree of 648 hosts on radix 36 is the full non-blocking layout") {
  FatTree ft = tree(648, 36);
  REQUIRE(ft.hosts.size() == 648);
  REQUIRE(ft.leaves().size() == 36);
  REQUIRE(ft.spines().size() == 18);
  REQUIRE(ft.switches.size() == 2);
  REQUIRE(ft.topology.links().size() == 648 + 36 * 18);
  REQUIRE(ft.topology.count(NodeType::ca) == 648);
  REQUIRE(ft.topology.count(NodeType::sw) == 54);
  REQUIRE(ft.host_ports_per_leaf == 18);
  REQUIRE(ft.uplinks_per_leaf == 18);
  REQUIRE(ft.leaf_spine_parallel == 1);
  require_ports_unique(ft.topology);
  require_hosts_single_linked(ft);

  auto counts = link_counts(ft.topology);
  auto ports = cabled_ports(ft.topology);
  for (const std::string& leaf : ft.leaves()) {
    REQUIRE(ports[leaf] == 36);
    for (const std::string& spine : ft.spines()) REQUIRE(counts[{leaf, spine}] == 1);
  }
  for (const std::string& spine : ft.spines()) REQUIRE(ports[spine] == 36);

  SECTION("names and host placement") {
    REQUIRE(ft.hosts.front() == "cn0001");
    REQUIRE(ft.hosts.back() == "cn0648");
    REQUIRE(ft.leaves().front() == "leaf01");
    REQUIRE(ft.leaves().back() == "leaf36");
    REQUIRE(ft.spines().front() == "spine01");
    REQUIRE(ft.spines().back() == "spine18");
    REQUIRE(ft.leaf_hosts[0].front() == "cn0001");
    REQUIRE(ft.leaf_hosts[0].back() == "cn0018");
    REQUIRE(ft.leaf_hosts[1].front() == "cn0019");
    REQUIRE(ft.leaves()[ft.host_leaf[647]] == "leaf36");
  }
  SECTION("port layout: hosts on 1..18, uplinks on 19..36") {
    const NetTopology& t = ft.topology;
    auto leaf = *t.find_node("leaf01");
    REQUIRE(t.node(t.peer({leaf, 1})->node).name == "cn0001");
    REQUIRE(t.node(t.peer({leaf, 19})->node).name == "spine01");
    REQUIRE(t.node(t.peer({leaf, 36})->node).name == "spine18");
    auto spine = *t.find_node("spine02");
    REQUIRE(t.node(t.peer({spine, 36})->node).name == "leaf36");
  }
  SECTION("default link rate is 4x HDR") {
    for (const NetLink& l : ft.topology.links()) {
      REQUIRE(l.a_setting == PortSetting{LinkWidth::x4, LinkSpeed::hdr});
      REQUIRE(l.b_setting == PortSetting{LinkWidth::x4, LinkSpeed::hdr});
    }
  }
  SECTION("summary") { REQUIRE(ft.summary() == "648 hosts, 36 leaves, 18 spines, 1296 links"); }
}

TEST_CASE("a partial two-level fat tree keeps uplinks spread evenly with parallel links") {
  FatTree ft = tree(100, 36);
  REQUIRE(ft.leaves().size() == 6);  // 5 full leaves and one with 10 hosts
  // 18 uplinks per leaf over the fewest spines whose 36 ports take 6 leaves: 6 links each.
  REQUIRE(ft.leaf_spine_parallel == 6);
  REQUIRE(ft.spines().size() == 3);
  REQUIRE(ft.topology.links().size() == 100 + 6 * 18);
  require_ports_unique(ft.topology);
  require_hosts_single_linked(ft);
  auto counts = link_counts(ft.topology);
  for (const std::string& leaf : ft.leaves())
    for (const std::string& spine : ft.spines()) REQUIRE(counts[{leaf, spine}] == 6);
  REQUIRE(ft.leaf_hosts[5].size() == 10);
  REQUIRE(cabled_ports(ft.topology)["leaf06"] == 10 + 18);
}

TEST_CASE("oversubscription moves leaf ports from uplinks to hosts") {
  FatTree ft = tree(100, 36, 2, 2, 1);
  REQUIRE(ft.host_ports_per_leaf == 24);
  REQUIRE(ft.uplinks_per_leaf == 12);
  REQUIRE(ft.leaves().size() == 5);
  REQUIRE(ft.leaf_spine_parallel == 6);  // 5 leaves * 6 links fit 36 ports
  REQUIRE(ft.spines().size() == 2);
  require_ports_unique(ft.topology);
  require_hosts_single_linked(ft);
}

TEST_CASE("three-level fat tree / full radix-8 layout") {
  FatTree ft = tree(128, 8, 3);  // k^3/4
  REQUIRE(ft.switches.size() == 3);
  REQUIRE(ft.pods == 8);
  REQUIRE(ft.leaves().size() == 32);
  REQUIRE(ft.spines().size() == 32);
  REQUIRE(ft.switches[2].size() == 16);
  REQUIRE(ft.topology.links().size() == 128 + 32 * 4 + 32 * 4);
  require_ports_unique(ft.topology);
  require_hosts_single_linked(ft);

  auto ports = cabled_ports(ft.topology);
  auto counts = link_counts(ft.topology);
  for (const auto& level : ft.switches)
    for (const std::string& sw : level) REQUIRE(ports[sw] == 8);
  // Each leaf reaches the 4 spines of its own pod, once each.
  for (std::size_t leaf = 0; leaf < ft.leaves().size(); ++leaf)
    for (std::size_t spine = 0; spine < ft.spines().size(); ++spine)
      REQUIRE(counts[{ft.leaves()[leaf], ft.spines()[spine]}] ==
              (ft.leaf_pod[leaf] == ft.spine_pod[spine] ? 1 : 0));
  // Each core reaches every pod exactly once.
  for (const std::string& core : ft.switches[2]) {
    std::map<int, int> per_pod;
    for (std::size_t spine = 0; spine < ft.spines().size(); ++spine)
      per_pod[ft.spine_pod[spine]] += counts[{core, ft.spines()[spine]}];
    REQUIRE(per_pod.size() == 8);
    for (auto [pod, n] : per_pod) REQUIRE(n == 1);
  }
  REQUIRE(ft.switches[2].front() == "core01");
  REQUIRE(ft.switches[2].back() == "core16");
}

TEST_CASE("three-level fat tree / partial radix-36 layout of 1000 hosts") {
  FatTree ft = tree(1000, 36, 3);
  REQUIRE(ft.leaves().size() == 56);
  REQUIRE(ft.pods == 4);
  REQUIRE(ft.spines_per_pod == 18);
  REQUIRE(ft.spines().size() == 72);
  REQUIRE(ft.spine_uplinks == 18);
  REQUIRE(ft.spine_core_parallel == 9);  // 4 pods * 9 links fill a core's 36 ports
  REQUIRE(ft.switches[2].size() == 36);
  REQUIRE(ft.topology.links().size() == 1000 + 56 * 18 + 72 * 18);
  require_ports_unique(ft.topology);
  require_hosts_single_linked(ft);
  auto ports = cabled_ports(ft.topology);
  for (const std::string& core : ft.switches[2]) REQUIRE(ports[core] == 36);
}

TEST_CASE("name widths grow with the counts") {
  FatTree ft = tree(11664, 36, 3);  // the largest three-level radix-36 tree
  REQUIRE(ft.hosts.front() == "cn00001");
  REQUIRE(ft.hosts.back() == "cn11664");
  REQUIRE(ft.leaves().front() == "leaf001");
  REQUIRE(ft.leaves().size() == 648);
  REQUIRE(ft.spines().front() == "spine001");
  REQUIRE(ft.switches[2].size() == 324);
  REQUIRE(ft.switches[2].front() == "core001");
  REQUIRE(ft.topology.links().size() == 11664 * 3);
  require_ports_unique(ft.topology);
}

TEST_CASE("impossible fat trees are refused") {
  REQUIRE_THROWS_AS(tree(649, 36), std::invalid_argument);
  REQUIRE(fat_tree_capacity({.hosts = 1, .radix = 36, .levels = 2}) == 648);
  REQUIRE(fat_tree_capacity({.hosts = 1, .radix = 36, .levels = 3}) == 11664);
  REQUIRE_THROWS_AS(tree(11665, 36, 3), std::invalid_argument);
  REQUIRE_THROWS_AS(tree(10, 35), std::invalid_argument);
  REQUIRE_THROWS_AS(tree(10, 2), std::invalid_argument);
  REQUIRE_THROWS_AS(tree(10, 36, 4), std::invalid_argument);
  REQUIRE_THROWS_AS(tree(0, 36), std::invalid_argument);
}

TEST_CASE("net file of a fat tree") {
  FatTree ft = tree(16, 8);
  std::string net = ft.net_file();
  SECTION("cn0001 is the first node, so the SM and clients attach to a host") {
    auto first_node = net.find("\nHca");
    REQUIRE(first_node != std::string::npos);
    REQUIRE(net.find("\nSwitch") > first_node);
    std::string first = "\nHca\t1\t\"cn0001\"\n[1]\t\"leaf01\"[1]";
    REQUIRE(net.compare(first_node, first.size(), first) == 0);
  }
  SECTION("every port line carries the width/speed trailer") {
    std::size_t port_lines = 0, pos = 0;
    while ((pos = net.find("\n[", pos)) != std::string::npos) {
      auto end = net.find('\n', pos + 1);
      std::string line = net.substr(pos + 1, end - pos - 1);
      REQUIRE(line.ends_with("lid 0 4xHDR"));
      ++port_lines;
      pos = end;
    }
    REQUIRE(port_lines == 2 * ft.topology.links().size());
  }
  SECTION("switch lines name their peers and ports") {
    REQUIRE(net.find("Switch\t8\t\"leaf01\"\n[1]\t\"cn0001\"[1]\t# \"cn0001\" lid 0 4xHDR\n") !=
            std::string::npos);
    REQUIRE(net.find("[5]\t\"spine01\"[1]\t# \"spine01\" lid 0 4xHDR\n") != std::string::npos);
  }
}
