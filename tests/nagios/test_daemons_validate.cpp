// SPDX-License-Identifier: MIT
// The generated configuration as the real daemons read it: nagios4 -v and icinga2 daemon -C
// accept it next to the stock Debian configuration for a 648-host fat tree, the real Selene
// compute fabric and a fabric whose node names are hostile, with the objects expected (a host
// per switch and one for the fabric, a host group per level and per leaf, a service per
// switch). Without nagios4 and icinga2 the tests are Skipped.
#include <catch2/catch.hpp>
#include <filesystem>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include "config_parsing.hpp"
#include "daemon_support.hpp"
#include "fabric/types.hpp"
#include "generator_run.hpp"
#include "support/process.hpp"
#include "support/skip.hpp"
#include "support/temp_dir.hpp"
#include "support/text_files.hpp"
#include "topology/topology.hpp"

using namespace ibpm::nagios_test;
using namespace ibpm::test;
namespace fs = std::filesystem;

namespace {

constexpr const char* kNoNagios =
    "nagios4 not installed (apt-get install nagios4-core monitoring-plugins-basic)";
constexpr const char* kNoIcinga =
    "icinga2 not installed (apt-get install icinga2-bin icinga2-common)";

bool have_nagios() {
  return !find_program("nagios4").empty() && fs::exists("/etc/nagios4/objects/templates.cfg");
}

bool have_icinga() {
  return !find_program("icinga2").empty() && fs::exists("/etc/icinga2/constants.conf");
}

// For a case that checks both daemons: Skipped without either, a note when half of it ran.
#define IBPM_REQUIRE_A_DAEMON(nagios, icinga)                              \
  do {                                                                     \
    if (!(nagios) && !(icinga)) IBPM_SKIP(kNoNagios << "; " << kNoIcinga); \
    if (!(nagios)) WARN("only icinga2 checked: " << kNoNagios);            \
    if (!(icinga)) WARN("only nagios4 checked: " << kNoIcinga);            \
  } while (0)

struct FabricCounts {
  int switches = 0, cas = 0;
};

FabricCounts count_nodes(const std::string& dump) {
  FabricCounts counts;
  const ibpm::topology::Topology topology = ibpm::topology::load_topology_file(dump);
  for (const ibpm::Node& node : topology.fabric.nodes()) {
    if (node.type == ibpm::NodeType::sw)
      ++counts.switches;
    else if (node.type == ibpm::NodeType::ca)
      ++counts.cas;
  }
  return counts;
}

std::string fat_tree_dump(const TempDir& dir, int hosts, int radix) {
  return generated_fat_tree(dir, "fat-tree.ibnetdiscover", hosts, radix);
}

std::string generate(const TempDir& dir, const std::string& name, const std::string& format,
                     const std::string& dump, const std::vector<std::string>& more = {}) {
  const std::string out = dir / name;
  run_config_generator(dir, format, out, dump, more);
  return out;
}

// Host group names of the generated Nagios files.
std::set<std::string> nagios_groups(const std::string& out) {
  std::set<std::string> groups;
  for (const NagiosObject& object : parse_nagios_objects(read_text(out + "/ibpm-hostgroups.cfg")))
    groups.insert(object.get("hostgroup_name"));
  return groups;
}

std::size_t leaf_groups(const std::set<std::string>& groups) {
  std::size_t n = 0;
  for (const std::string& g : groups) n += g.rfind("ib-leaf-", 0) == 0;
  return n;
}

// nagios4 -v accepts the folder with no error and no warning; returns what it counted.
std::map<std::string, int> require_nagios_accepts(const TempDir& dir, const std::string& out) {
  const NagiosSetup setup =
      write_nagios_setup(dir.path() / ("nagios-" + fs::path(out).filename().string()), out);
  const ProcessRun run = nagios_verify(setup);
  INFO(run.out);
  REQUIRE(run.exit_code == 0);
  CHECK(run.out.find("Total Errors:   0") != std::string::npos);
  CHECK(run.out.find("Total Warnings: 0") != std::string::npos);
  return nagios_checked_counts(run.out);
}

// icinga2 daemon -C accepts the folder; the only warnings allowed are apply rules of ours that
// match nothing in this fabric (the shard rule without zones, the single-parent dependency in a
// fabric where every host has several parents, ...). Returns what it instantiated.
std::map<std::string, int> require_icinga_accepts(const TempDir& dir, const std::string& out) {
  const ProcessRun run =
      icinga_validate(dir.path() / ("icinga-" + fs::path(out).filename().string()), out);
  INFO(run.out);
  REQUIRE(run.exit_code == 0);
  CHECK(icinga_log_lines(run.out, "critical").empty());
  static const std::regex unmatched(
      R"re(^warning/ApplyRule: Apply rule '(ib-parent|ib-fabric|ib-fabric-shard|ib-events|cluster-)' \(in .*/ibpm-templates\.conf: [0-9:-]+\) for type '\w+' does not match anywhere!$)re");
  for (const std::string& line : icinga_log_lines(run.out, "warning")) {
    INFO(line);
    CHECK(std::regex_match(line, unmatched));
  }
  CHECK(run.out.find("Finished validating the configuration") != std::string::npos);
  return icinga_instantiated_counts(run.out);
}

}  // namespace

TEST_CASE("nagios4 accepts the configuration of a 648-host fat tree") {
  if (!have_nagios()) IBPM_SKIP(kNoNagios);
  TempDir dir("nagios-fat-tree");
  const std::string dump = fat_tree_dump(dir, 648, 36);
  const FabricCounts nodes = count_nodes(dump);
  REQUIRE(nodes.switches == 54);
  const std::string out = generate(dir, "ibpm", "nagios", dump);
  const auto counts = require_nagios_accepts(dir, out);
  CHECK(counts.at("hosts") == nodes.switches + 1);  // the switches and the fabric
  CHECK(counts.at("services") ==
        nodes.switches + 4);  // ib-node each, ib-fabric, ib-sm, ib-routes, ib-topology
  const auto groups = nagios_groups(out);
  CHECK(groups.contains("ib-level-leaf"));
  CHECK(groups.contains("ib-level-spine"));
  CHECK(leaf_groups(groups) == 36);
  CHECK(counts.at("host groups") == static_cast<int>(groups.size()));
  CHECK(groups.size() == 38);
}

TEST_CASE("icinga2 accepts the configuration of a 648-host fat tree with and without zones") {
  if (!have_icinga()) IBPM_SKIP(kNoIcinga);
  TempDir dir("icinga-fat-tree");
  const std::string dump = fat_tree_dump(dir, 648, 36);
  const FabricCounts nodes = count_nodes(dump);
  const auto plain = require_icinga_accepts(dir, generate(dir, "ibpm", "icinga2", dump));
  CHECK(plain.at("Host") == nodes.switches + 1);
  CHECK(plain.at("Service") == nodes.switches + 4);
  CHECK(plain.at("HostGroup") == 38);
  CHECK(plain.at("Zone") == 1);  // the master's only

  const auto zoned =
      require_icinga_accepts(dir, generate(dir, "ibpm-zones", "icinga2", dump, {"--zones", "2"}));
  CHECK(zoned.at("Host") == nodes.switches + 1 + 2);  // and a shard host per zone
  // ib-topology, ib-sm, ib-routes, one shard and one cluster-zone check per zone
  CHECK(zoned.at("Service") == nodes.switches + 3 + 2 + 2);
  CHECK(zoned.at("Zone") == 1 + 2 + 1);  // the master's, two satellite zones, the global zone
  CHECK(zoned.at("Endpoint") == 1 + 2);
  CHECK(zoned.at("HostGroup") == 38);

  const auto ha = require_icinga_accepts(
      dir, generate(dir, "ibpm-ha", "icinga2", dump,
                    {"--zones", "2", "--endpoints-per-zone", "2", "--endpoint-address",
                     "ib-satellite-1a=127.0.0.1:5701", "--check-interval", "20"}));
  CHECK(ha.at("Zone") == 1 + 2 + 1);
  CHECK(ha.at("Endpoint") == 1 + 4);
  CHECK(ha.at("Service") == nodes.switches + 3 + 2 + 2);
}

TEST_CASE("nagios4 and icinga2 accept the configuration of the real Selene compute fabric") {
  const fs::path packed =
      fs::path(IBPM_REAL_FIXTURES) / "nvidia_selene_compute_hdr_666sw_4341ca.ibnetdiscover.xz";
  if (!fs::exists(packed) || find_program("xz").empty())
    IBPM_SKIP(packed.string() << " or xz not available");
  const bool nagios = have_nagios(), icinga = have_icinga();
  IBPM_REQUIRE_A_DAEMON(nagios, icinga);
  TempDir dir("nagios-selene");
  const std::string dump = dir / "selene.ibnetdiscover";
  const ProcessRun unpack = run_process(
      {"/bin/sh", "-c", "xz -dc \"$0\" > \"$1\"", packed.string(), dump}, {{}, Stderr::merged});
  REQUIRE(unpack.exit_code == 0);
  const FabricCounts nodes = count_nodes(dump);
  REQUIRE(nodes.switches == 666);
  if (nagios) {
    const std::string out = generate(dir, "ibpm", "nagios", dump);
    const auto counts = require_nagios_accepts(dir, out);
    CHECK(counts.at("hosts") == nodes.switches + 1);
    CHECK(counts.at("services") == nodes.switches + 4);
    const auto groups = nagios_groups(out);
    for (const char* level : {"ib-level-leaf", "ib-level-spine", "ib-level-core"}) {
      INFO(level);
      CHECK(groups.contains(level));
    }
    CHECK(leaf_groups(groups) > 100);
    CHECK(counts.at("host groups") == static_cast<int>(groups.size()));
  }
  if (icinga) {
    const auto plain = require_icinga_accepts(dir, generate(dir, "ibpm-icinga", "icinga2", dump));
    CHECK(plain.at("Host") == nodes.switches + 1);
    CHECK(plain.at("Service") == nodes.switches + 4);
    const auto zoned =
        require_icinga_accepts(dir, generate(dir, "ibpm-zones", "icinga2", dump, {"--zones", "2"}));
    CHECK(zoned.at("Host") == nodes.switches + 1 + 2);
    CHECK(zoned.at("Service") == nodes.switches + 3 + 2 + 2);
    CHECK(zoned.at("Zone") == 4);
  }
}

namespace {

// A small fat tree whose names are whatever an operator (or a switch's NodeDescription) might
// hold: markup, quotes, backticks, shell and macro characters, UTF-8, names that collide with
// each other, with the fabric host and with a template, and a name with nothing usable.
struct HostileFabric {
  std::string dump;
  std::string map;
  FabricCounts nodes;
};

HostileFabric hostile_fabric(const TempDir& dir) {
  HostileFabric fabric;
  std::string text = read_text(fat_tree_dump(dir, 36, 12));
  // Descriptions the dump format can carry (no '"', no line break).
  const std::vector<std::pair<std::string, std::string>> descriptions{
      {"\"cn0003\"", "\"cn0003 $USER1$ ; \\ `id` $(id) #x\""},
      {"\"cn0004\"", "\"<img src=x onerror=alert(1)>\""},
      {"\"spine03\"", "\"MF0;spine03:MQM8700/U1 $ARG1$\""}};
  for (const auto& [from, to] : descriptions)
    for (auto at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size()))
      text.replace(at, from.size(), to);
  fabric.dump = dir / "hostile.ibnetdiscover";
  write_text(fabric.dump, text);

  std::map<std::string, ibpm::Guid> guid;
  const ibpm::topology::Topology topology = ibpm::topology::load_topology_file(fabric.dump);
  for (const ibpm::Node& node : topology.fabric.nodes()) guid[node.description] = node.guid;
  const std::vector<std::pair<std::string, std::string>> names{
      {"leaf01", "<script>alert('leaf01')</script>"},
      {"leaf02", "leaf!02 'quoted' `backtick` %s %n"},
      {"leaf03", "Überleaf ✓ 03 — ünïcødé"},
      {"leaf04", "semi;colon $USER1$ $$ {braces} [brackets] *glob?"},
      {"leaf05", "ib-fabric"},
      {"leaf06", "ibpm-switch"},
      {"spine01", "!!!"},
      {"spine02", "same name"},
      {"MF0;spine03:MQM8700/U1 $ARG1$", "same   name"},
      {"cn0001", "host <b>1</b> & co"},
      {"cn0002", "   "}};
  std::string map = "# hostile names\n";
  for (const auto& [node, name] : names) {
    REQUIRE(guid.contains(node));
    map += ibpm::format_guid(guid.at(node)) + " \"" + name + "\"\n";
  }
  // The map's own path needs quoting on a command line.
  fs::create_directories(dir.path() / "map dir $HOME;x");
  fabric.map = (dir.path() / "map dir $HOME;x" / "names map").string();
  write_text(fabric.map, map);
  fabric.nodes = count_nodes(fabric.dump);
  return fabric;
}

}  // namespace

TEST_CASE("nagios4 and icinga2 accept the configuration of a fabric with hostile names") {
  const bool nagios = have_nagios(), icinga = have_icinga();
  IBPM_REQUIRE_A_DAEMON(nagios, icinga);
  TempDir dir("nagios-hostile");
  const HostileFabric fabric = hostile_fabric(dir);
  REQUIRE(fabric.nodes.switches == 9);
  REQUIRE(fabric.nodes.cas == 36);
  const std::vector<std::string> options{"--cas", "--node-name-map", fabric.map};
  if (nagios) {
    const std::string out = generate(dir, "ibpm", "nagios", fabric.dump, options);
    const auto counts = require_nagios_accepts(dir, out);
    CHECK(counts.at("hosts") == fabric.nodes.switches + fabric.nodes.cas + 1);
    CHECK(counts.at("services") == fabric.nodes.switches + 4);
    std::set<std::string> hosts;
    for (const NagiosObject& object : parse_nagios_objects(read_text(out + "/ibpm-hosts.cfg")))
      hosts.insert(object.get("host_name"));
    CHECK(hosts.size() == static_cast<std::size_t>(counts.at("hosts")));
    CHECK(hosts.contains("ib-fabric"));  // the fabric host keeps its name; leaf05 gives way
    static const std::regex with_guid(R"(^(ib-fabric|ibpm-switch|same_name|switch)-[0-9a-f]{16}$)");
    int renamed = 0;
    for (const std::string& host : hosts) renamed += std::regex_match(host, with_guid);
    CHECK(renamed == 5);  // leaf05, leaf06, spine01 (nothing usable), spine02 and spine03
  }
  if (icinga) {
    const std::string out = generate(dir, "ibpm-icinga", "icinga2", fabric.dump, options);
    const auto counts = require_icinga_accepts(dir, out);
    CHECK(counts.at("Host") == fabric.nodes.switches + fabric.nodes.cas + 1);
    CHECK(counts.at("Service") == fabric.nodes.switches + 4);
    // CAs on one leaf get a parent dependency each.
    CHECK(counts.at("Dependency") == fabric.nodes.cas);
  }
}

TEST_CASE("nagios4 and icinga2 accept passive switch services with their freshness") {
  IBPM_REQUIRE_A_DAEMON(have_nagios(), have_icinga());
  TempDir dir("passive-fat-tree");
  const std::string dump = fat_tree_dump(dir, 648, 36);
  const FabricCounts nodes = count_nodes(dump);
  const std::vector<std::string> passive{"--node-services", "passive", "--freshness", "90"};
  if (have_nagios()) {
    const std::string out = generate(dir, "ibpm-passive", "nagios", dump, passive);
    const auto counts = require_nagios_accepts(dir, out);
    CHECK(counts.at("services") == nodes.switches + 4);  // ib-fabric, ib-topology, ib-sm, ib-routes
    std::size_t fresh = 0;
    for (const NagiosObject& s : parse_nagios_objects(read_text(out + "/ibpm-services.cfg")))
      fresh += s.get("service_description") == "ib-node" && s.get("active_checks_enabled") == "0" &&
               s.get("check_freshness") == "1" && s.get("freshness_threshold") == "90";
    CHECK(fresh == static_cast<std::size_t>(nodes.switches));
  }
  if (have_icinga()) {
    const std::string out = generate(dir, "ibpm-passive-icinga", "icinga2", dump, passive);
    const auto counts = require_icinga_accepts(dir, out);
    CHECK(counts.at("Service") == nodes.switches + 4);
    // What Icinga 2 made of the apply rule: the dummy check, run when no result came for 90 s.
    const fs::path cache = dir.path() / "icinga-ibpm-passive-icinga" / "cache";
    const ProcessRun list =
        run_process({find_program("icinga2"), "object", "list", "--type", "Service", "--name",
                     "*!ib-node", "-D", "Configuration.CacheDir=" + cache.string()},
                    {.env = {"ICINGA2_USER=" + current_user(), "ICINGA2_GROUP=" + current_group()},
                     .stderr_to = Stderr::merged});
    INFO(list.out.substr(0, 3000));
    REQUIRE(list.exit_code == 0);
    std::size_t dummies = 0, intervals = 0, texts = 0;
    for (const std::string& line : list.lines()) {
      dummies += line.find("* check_command = \"dummy\"") != std::string::npos;
      intervals += line.find("* check_interval = 90") != std::string::npos;
      texts += line.find("\"no result from the fabric sweep for 90 s\"") != std::string::npos;
    }
    CHECK(dummies == static_cast<std::size_t>(nodes.switches));
    CHECK(intervals == static_cast<std::size_t>(nodes.switches));
    CHECK(texts == static_cast<std::size_t>(nodes.switches));
    // The sweep submits to the API of the endpoint that runs it: NodeName, evaluated there.
    const ProcessRun fabric =
        run_process({find_program("icinga2"), "object", "list", "--type", "Host", "--name",
                     "ib-fabric", "-D", "Configuration.CacheDir=" + cache.string()},
                    {.env = {"ICINGA2_USER=" + current_user(), "ICINGA2_GROUP=" + current_group()},
                     .stderr_to = Stderr::merged});
    INFO(fabric.out);
    CHECK(fabric.out.find("* ib_fabric_icinga2_api = \"https://") != std::string::npos);
    CHECK(fabric.out.find("* ib_fabric_icinga2_user = \"ibpm\"") != std::string::npos);
    // And with zones (each satellite's sweep to its own endpoint).
    std::vector<std::string> zoned = passive;
    zoned.insert(zoned.end(), {"--zones", "2"});
    require_icinga_accepts(dir, generate(dir, "ibpm-passive-zones", "icinga2", dump, zoned));
  }
}
