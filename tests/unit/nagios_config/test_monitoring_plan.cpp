// SPDX-License-Identifier: MIT
// Hosts, parents, groups and zones planned from generated fat trees.
#include <algorithm>
#include <catch2/catch.hpp>
#include <map>
#include <set>

#include "check_settings.hpp"
#include "monitoring_plan.hpp"
#include "plan_fixtures.hpp"
#include "sim/fat_tree.hpp"

using namespace ibpm;
using namespace ibpm::nagios_config;
using namespace ibpm::nagios_config::test;

namespace {

std::map<std::string, PlannedHost> by_name(const MonitoringPlan& plan) {
  std::map<std::string, PlannedHost> hosts;
  for (const PlannedHost& h : plan.hosts) hosts[h.name] = h;
  return hosts;
}

std::set<std::string> as_set(const std::vector<std::string>& v) { return {v.begin(), v.end()}; }

}  // namespace

TEST_CASE("three-level fat tree: parents one level up, groups per level and leaf") {
  const sim::FatTree tree = sim::make_fat_tree({.hosts = 64, .radix = 8, .levels = 3});
  const Fabric fabric = delegation::test::fabric_of(tree.topology);
  const MonitoringPlan plan = plan_monitoring(fabric, nullptr, plan_options(true));
  const auto hosts = by_name(plan);
  REQUIRE(plan.switches == tree.switch_count());
  REQUIRE(plan.cas == tree.hosts.size());
  CHECK(std::is_sorted(plan.hosts.begin(), plan.hosts.end(),
                       [](const auto& a, const auto& b) { return a.name < b.name; }));

  for (const std::string& core : tree.switches[2]) {
    INFO(core);
    CHECK(hosts.at(core).parents.empty());
    CHECK(hosts.at(core).groups == std::vector<std::string>{"ib-level-core"});
  }
  for (std::size_t s = 0; s < tree.spines().size(); ++s) {
    const PlannedHost& spine = hosts.at(tree.spines()[s]);
    INFO(spine.name);
    // Exactly the cores its uplinks reach.
    std::set<std::string> cores;
    for (const std::string& core : tree.switches[2])
      for (int p = 1; p <= 8; ++p) {
        const auto c = tree.topology.find_node(core);
        const auto peer = tree.topology.peer({*c, p});
        if (peer && tree.topology.node(peer->node).name == spine.name) cores.insert(core);
      }
    CHECK(!cores.empty());
    CHECK(as_set(spine.parents) == cores);
    CHECK(spine.groups == std::vector<std::string>{"ib-level-spine"});
  }
  for (std::size_t l = 0; l < tree.leaves().size(); ++l) {
    const PlannedHost& leaf = hosts.at(tree.leaves()[l]);
    INFO(leaf.name);
    std::set<std::string> pod_spines;
    for (std::size_t s = 0; s < tree.spines().size(); ++s)
      if (tree.spine_pod[s] == tree.leaf_pod[l]) pod_spines.insert(tree.spines()[s]);
    CHECK(as_set(leaf.parents) == pod_spines);
    CHECK(as_set(leaf.groups) == std::set<std::string>{"ib-leaf-" + leaf.name, "ib-level-leaf"});
    for (const std::string& cn : tree.leaf_hosts[l]) {
      CHECK(hosts.at(cn).parents == std::vector<std::string>{leaf.name});
      CHECK(as_set(hosts.at(cn).groups) ==
            std::set<std::string>{"ib-leaf-" + leaf.name, "ib-level-hosts"});
    }
  }
  // Without --cas: no CA hosts, leaf groups hold the leaf alone.
  const MonitoringPlan switches_only = plan_monitoring(fabric, nullptr, plan_options(false));
  CHECK(switches_only.cas == 0);
  CHECK(switches_only.hosts.size() == tree.switch_count());
}

TEST_CASE("names that collide get the GUID, whichever node comes first") {
  const sim::FatTree tree = sim::make_fat_tree({.hosts = 16, .radix = 8});
  NodeNameMap names;
  const Guid a = delegation::test::guid_of(tree.leaves()[0]);
  const Guid b = delegation::test::guid_of(tree.leaves()[1]);
  names.set(a, "edge;switch");
  names.set(b, "edge!switch");  // both become "edgeswitch"
  names.set(delegation::test::guid_of(tree.spines()[0]), "ib-fabric");
  std::vector<std::vector<std::string>> runs;
  for (unsigned seed : {1u, 2u, 3u}) {
    const Fabric fabric = delegation::test::fabric_of(tree.topology, shuffled(seed));
    const MonitoringPlan plan = plan_monitoring(fabric, &names, plan_options(false));
    std::vector<std::string> all;
    for (const PlannedHost& h : plan.hosts) all.push_back(h.name);
    runs.push_back(all);
    const auto hosts = by_name(plan);
    CHECK(hosts.contains("edgeswitch-" + format_guid(a).substr(2)));
    CHECK(hosts.contains("edgeswitch-" + format_guid(b).substr(2)));
    CHECK(!hosts.contains("edgeswitch"));
    // The spine named like the fabric host does not take its name.
    CHECK(!hosts.contains("ib-fabric"));
    CHECK(hosts.contains("ib-fabric-" +
                         format_guid(delegation::test::guid_of(tree.spines()[0])).substr(2)));
  }
  CHECK(runs[0] == runs[1]);
  CHECK(runs[1] == runs[2]);
}

TEST_CASE("a host named like a switch's disambiguated name does not stop the configuration") {
  // Issue 16: switches "leaf 01" and "leaf_01" both become leaf_01; a host described as
  // "leaf_01-<GUID of the first>" then wanted the name the first switch was given.
  const sim::FatTree tree = sim::make_fat_tree({.hosts = 16, .radix = 8});
  NodeNameMap names;
  const Guid a = delegation::test::guid_of(tree.leaves()[0]);
  const Guid b = delegation::test::guid_of(tree.leaves()[1]);
  const Guid host = delegation::test::guid_of(tree.hosts[0]);
  names.set(a, "leaf 01");
  names.set(b, "leaf_01");
  names.set(host, "leaf_01-" + format_guid(a).substr(2));
  const Fabric fabric = delegation::test::fabric_of(tree.topology);
  MonitoringPlan plan;
  REQUIRE_NOTHROW(plan = plan_monitoring(fabric, &names, plan_options(true)));
  std::map<Guid, std::string> name_of;
  std::set<std::string> all;
  for (const PlannedHost& h : plan.hosts) {
    name_of[h.guid] = h.name;
    CHECK(all.insert(h.name).second);
  }
  CHECK(name_of.at(host) == "leaf_01-" + format_guid(a).substr(2));
  CHECK(name_of.at(a) == "leaf_01-" + format_guid(a).substr(2) + "-2");
  CHECK(name_of.at(b) == "leaf_01-" + format_guid(b).substr(2));
}

TEST_CASE("zones follow check_ib_fabric's shards") {
  const sim::FatTree& tree = delegation::test::full_fat_tree();
  const Fabric fabric = delegation::test::fabric_of(tree.topology);
  const MonitoringPlan plan = plan_monitoring(fabric, nullptr, plan_options(false, 4));
  REQUIRE(plan.zones.size() == 4);
  std::size_t ports = 0;
  for (const PlannedZone& z : plan.zones) {
    CHECK(z.zone == "ib-zone-" + std::to_string(z.index));
    CHECK(z.endpoints == std::vector<std::string>{"ib-satellite-" + std::to_string(z.index)});
    CHECK(z.shard_host == "ib-fabric-shard-" + std::to_string(z.index));
    ports += z.ports;
  }
  CHECK(ports == delegation::test::all_targets(fabric).size());
  // Each switch sits in the zone whose shard polls its ports (they are never split).
  const auto targets = delegation::test::all_targets(fabric);
  const auto assignment =
      delegation::assign_shards(fabric, targets, 4, {}, delegation::AssignMode::even);
  std::map<Guid, unsigned> shard;
  for (std::size_t i = 0; i < targets.size(); ++i) shard[targets[i].node] = assignment[i];
  for (const PlannedHost& host : plan.hosts) {
    INFO(host.name);
    CHECK(host.zone == shard.at(host.guid));
  }
}

TEST_CASE("zones with two endpoints each share them for HA, and no more than two") {
  const sim::FatTree& tree = delegation::test::full_fat_tree();
  const Fabric fabric = delegation::test::fabric_of(tree.topology);
  PlanOptions options = plan_options(false, 2);
  options.zones.endpoints = 2;
  const MonitoringPlan plan = plan_monitoring(fabric, nullptr, options);
  REQUIRE(plan.zones.size() == 2);
  CHECK(plan.zones[0].endpoints == std::vector<std::string>{"ib-satellite-1a", "ib-satellite-1b"});
  CHECK(plan.zones[1].endpoints == std::vector<std::string>{"ib-satellite-2a", "ib-satellite-2b"});

  options.zones.endpoints = 3;
  CHECK_THROWS_WITH(plan_monitoring(fabric, nullptr, options),
                    "a zone has one or two endpoints, not 3");
}
