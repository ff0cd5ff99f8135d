// SPDX-License-Identifier: MIT

#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "fabric/graph.hpp"
#include "locality/node_set_file.hpp"
#include "locality/slurm_topology.hpp"
#include "sim/fat_tree.hpp"
#include "sim/net_fabric.hpp"

using namespace ibpm;
namespace fs = std::filesystem;

namespace {

std::string write_temp(const std::string& name, const std::string& text) {
  fs::path path =
      fs::temp_directory_path() / ("ibpm-test-" + std::to_string(::getpid()) + "-" + name);
  std::ofstream(path) << text;
  return path.string();
}

}  // namespace

TEST_CASE("node set files name hosts by hostlist or GUID") {
  auto tree = sim::make_fat_tree({.hosts = 72, .radix = 12});
  Fabric fabric = sim::net_fabric(tree.topology);
  levels::FabricLevels levels(fabric, make_graph(fabric));
  locality::DownSets down(fabric, levels);
  char guid[32];
  std::snprintf(guid, sizeof guid, "0x%016llx",
                static_cast<unsigned long long>(sim::net_node_guid("cn0070", NodeType::ca)));
  auto path = write_temp("sets", "# jobs\njob-a: cn[0001-0012]\n\njob-b: cn0013,cn0014 " +
                                     std::string(guid) + "  # and one by GUID\n");
  auto sets = locality::load_node_set_file(path, fabric, down, nullptr);
  REQUIRE(sets.size() == 2);
  CHECK(sets[0].name == "job-a");
  CHECK(sets[0].hosts.size() == 12);
  CHECK(sets[0].members.size() == 12 + 2);  // both leaves are wholly theirs
  CHECK(sets[1].hosts.size() == 3);
  CHECK(!sets[1].subtree);

  auto bad = write_temp("bad", "ok: cn0001\nbroken: cn9999\n");
  CHECK_THROWS_WITH(locality::load_node_set_file(bad, fabric, down, nullptr),
                    Catch::Contains(":2: no host cn9999"));
  auto no_colon = write_temp("nocolon", "cn0001\n");
  CHECK_THROWS_WITH(locality::load_node_set_file(no_colon, fabric, down, nullptr),
                    Catch::Contains(":1: expected"));
  fs::remove(path);
  fs::remove(bad);
  fs::remove(no_colon);
}

TEST_CASE("a Slurm topology.conf written from the fabric reads back as its subtrees") {
  auto tree = sim::make_fat_tree({.hosts = 216, .radix = 12, .levels = 3});
  Fabric fabric = sim::net_fabric(tree.topology);
  levels::FabricLevels levels(fabric, make_graph(fabric));
  locality::DownSets down(fabric, levels);
  std::ostringstream conf;
  locality::write_slurm_topology(conf, fabric, levels, nullptr);
  CHECK(conf.str().find("SwitchName=leaf01 Nodes=cn[0001-0006]\n") != std::string::npos);
  auto path = write_temp("topology.conf", conf.str());
  auto sets = locality::load_slurm_topology(path, fabric, down, nullptr);
  CHECK(sets.size() == tree.switch_count());
  for (const auto& set : sets) {
    INFO(set.name);
    if (set.name.starts_with("leaf")) CHECK(set.hosts.size() == 6);
    if (set.name.starts_with("spine")) CHECK(set.hosts.size() == 36);  // its pod
    if (set.name.starts_with("core")) CHECK(set.hosts.size() == 216);
  }
  auto cyclic = write_temp("cyclic.conf", "SwitchName=a Switches=b\nSwitchName=b Switches=a\n");
  CHECK_THROWS_WITH(locality::load_slurm_topology(cyclic, fabric, down, nullptr),
                    Catch::Contains("its own descendant"));
  fs::remove(path);
  fs::remove(cyclic);
}

TEST_CASE("hostile descriptions never reach topology.conf, colliding switch names are told apart") {
  // Issue 16: a host described "cn0002,cn9001,cn9002" added two fake nodes, "cn0003#x"
  // commented out the rest of the line, a CR split it; "leaf 01" and "leaf_01" both became leaf_01.
  auto tree = sim::make_fat_tree({.hosts = 16, .radix = 8});
  Fabric fabric = sim::net_fabric(tree.topology);
  auto guid = [&](const std::string& name) {
    for (const Node& node : fabric.nodes())
      if (node.description == name) return node.guid;
    FAIL("no node " << name);
    return Guid{0};
  };
  const Guid comma = guid("cn0002"), hash = guid("cn0003"), cr = guid("cn0004");
  const Guid leaf_a = guid(tree.leaves()[0]), leaf_b = guid(tree.leaves()[1]);
  fabric.find(comma)->description = "cn0002,cn9001,cn9002";
  fabric.find(hash)->description = "cn0003#x";
  fabric.find(cr)->description = "cn0004\rSwitchName=evil Nodes=cn9003";
  fabric.find(leaf_a)->description = "leaf 01";
  fabric.find(leaf_b)->description = "leaf_01";
  levels::FabricLevels levels(fabric, make_graph(fabric));
  std::ostringstream conf;
  const auto warnings = locality::write_slurm_topology(conf, fabric, levels, nullptr);
  const std::string text = conf.str();
  INFO(text);
  CHECK(text.find("cn9001") == std::string::npos);
  CHECK(text.find("cn9003") == std::string::npos);
  CHECK(text.find("evil") == std::string::npos);
  CHECK(text.find('\r') == std::string::npos);
  std::istringstream lines(text);
  std::set<std::string> switch_names;
  for (std::string line; std::getline(lines, line);) {
    if (line.starts_with("# ")) continue;
    CHECK(line.find('#') == std::string::npos);
    REQUIRE(line.starts_with("SwitchName="));
    CHECK(switch_names.insert(line.substr(11, line.find(' ') - 11)).second);
  }
  CHECK(switch_names.contains("leaf_01-" + format_guid(leaf_a).substr(2)));
  CHECK(switch_names.contains("leaf_01-" + format_guid(leaf_b).substr(2)));
  auto warned = [&](Guid g) {
    return std::any_of(warnings.begin(), warnings.end(), [&](const std::string& w) {
      return w.find(format_guid(g)) != std::string::npos && w.find('\r') == std::string::npos;
    });
  };
  for (Guid g : {comma, hash, cr, leaf_a, leaf_b}) CHECK(warned(g));
  // What was written reads back: the hosts left out are simply not in any set.
  auto path = write_temp("hostile.conf", text);
  locality::DownSets down(fabric, levels);
  CHECK_NOTHROW(locality::load_slurm_topology(path, fabric, down, nullptr));
  fs::remove(path);
}

TEST_CASE("a jobs file gives one set per job, of its hosts in the fabric") {
  auto tree = sim::make_fat_tree({.hosts = 72, .radix = 12});
  Fabric fabric = sim::net_fabric(tree.topology);
  levels::FabricLevels levels(fabric, make_graph(fabric));
  locality::DownSets down(fabric, levels);
  auto path =
      write_temp("jobs", "4711 cn[0001-0012],login01\n4712 gpu[01-04]\n4713\n4714 cn0013\n");
  std::vector<std::string> warnings;
  auto sets = locality::load_job_sets(path, fabric, down, nullptr, warnings);
  REQUIRE(sets.size() == 2);
  CHECK(sets[0].name == "job 4711");
  CHECK(sets[0].hosts.size() == 12);        // login01 is not on the fabric
  CHECK(sets[0].members.size() == 12 + 2);  // with the two leaves wholly theirs
  CHECK(sets[1].name == "job 4714");
  CHECK(sets[1].hosts.size() == 1);
  // 4712's hosts are elsewhere, 4713 is pending (no hosts): both said, neither a set.
  REQUIRE(warnings.size() == 2);
  CHECK_THAT(warnings[0], Catch::Contains("job 4712 has no host in the fabric"));
  CHECK_THAT(warnings[1], Catch::Contains("job 4713"));
}
