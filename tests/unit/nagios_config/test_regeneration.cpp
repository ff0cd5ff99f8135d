// SPDX-License-Identifier: MIT
// A second run after a switch left the fabric changes only that switch's objects (they go)
// and its neighbours' parent and group lines; every other object stays as it was, in place.
#include <algorithm>
#include <catch2/catch.hpp>
#include <map>
#include <set>
#include <sstream>

#include "config_files.hpp"
#include "monitoring_plan.hpp"
#include "plan_fixtures.hpp"
#include "sim/fat_tree.hpp"

using namespace ibpm;
using namespace ibpm::nagios_config;
using namespace ibpm::nagios_config::test;

namespace {

struct Block {
  std::string key;  // the lines that name the object
  std::vector<std::string> lines;
};

std::string trimmed(const std::string& line) {
  const auto first = line.find_first_not_of(' ');
  return first == std::string::npos ? "" : line.substr(first);
}

// Objects of a generated file, in order: text from "define"/"object" to the closing "}".
std::vector<Block> blocks(const std::string& text) {
  std::vector<Block> result;
  std::istringstream in(text);
  std::optional<Block> current;
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("define ", 0) == 0 || line.rfind("object ", 0) == 0) current = Block{line, {}};
    if (!current) continue;
    current->lines.push_back(line);
    const std::string t = trimmed(line);
    for (const char* naming :
         {"name ", "host_name ", "hostgroup_name ", "service_description ", "command_name "})
      if (t.rfind(naming, 0) == 0) current->key += " | " + t;
    if (line == "}") {
      result.push_back(*current);
      current.reset();
    }
  }
  return result;
}

bool mentions(const Block& block, const std::string& name) {
  for (const std::string& l : block.lines) {
    const std::string t = trimmed(l);
    if (t == "host_name               " + name || t == "hostgroup_name          ib-leaf-" + name ||
        l == "object Host \"" + name + "\" {" || l == "object HostGroup \"ib-leaf-" + name + "\" {")
      return true;
  }
  return false;
}

bool membership_line(const std::string& line) {
  const std::string t = trimmed(line);
  for (const char* prefix : {"parents ", "hostgroups ", "vars.ib_parents = ", "groups = "})
    if (t.rfind(prefix, 0) == 0) return true;
  return false;
}

std::vector<std::string> without_membership(const Block& block) {
  std::vector<std::string> lines;
  std::copy_if(block.lines.begin(), block.lines.end(), std::back_inserter(lines),
               [](const std::string& l) { return !membership_line(l); });
  return lines;
}

// Compares the files of two runs: `gone` left the fabric; `neighbours` were cabled to it.
void check_only_changes(const ConfigFiles& before, const ConfigFiles& after,
                        const std::string& gone, const std::set<std::string>& neighbours,
                        bool neighbours_change) {
  REQUIRE(before.size() == after.size());
  std::size_t removed = 0, changed = 0;
  for (const auto& [file, old_text] : before) {
    INFO(file);
    REQUIRE(after.contains(file));
    const std::vector<Block> old_blocks = blocks(old_text), new_blocks = blocks(after.at(file));
    std::map<std::string, const Block*> new_by_key;
    for (const Block& b : new_blocks) new_by_key[b.key] = &b;
    std::vector<std::string> kept_order;
    for (const Block& b : old_blocks) {
      INFO(b.key);
      const auto it = new_by_key.find(b.key);
      if (it == new_by_key.end()) {
        CHECK(mentions(b, gone));
        ++removed;
        continue;
      }
      kept_order.push_back(b.key);
      if (it->second->lines == b.lines) continue;
      ++changed;
      // Only a neighbour changes, and only in its parents or groups.
      bool is_neighbour = false;
      for (const std::string& n : neighbours) is_neighbour |= mentions(b, n);
      CHECK(is_neighbour);
      CHECK(without_membership(*it->second) == without_membership(b));
    }
    // Nothing new, and what stayed kept its order.
    std::vector<std::string> new_order;
    for (const Block& b : new_blocks) new_order.push_back(b.key);
    CHECK(new_order == kept_order);
    // Commands, templates and settings do not depend on the fabric.
    if (file.find("commands") != std::string::npos || file.find("templates") != std::string::npos ||
        file.find("settings") != std::string::npos)
      CHECK(after.at(file) == old_text);
  }
  CHECK(removed > 0);
  CHECK((changed > 0) == neighbours_change);
}

std::set<std::string> neighbours_of(const sim::FatTree& tree, const std::string& name) {
  std::set<std::string> result;
  const auto index = tree.topology.find_node(name);
  for (int p = 1; p <= tree.topology.node(*index).port_count; ++p)
    if (const auto peer = tree.topology.peer({*index, p}))
      result.insert(tree.topology.node(peer->node).name);
  return result;
}

}  // namespace

TEST_CASE("regenerating after a switch left changes only its objects and its neighbours") {
  const sim::FatTree tree = sim::make_fat_tree({.hosts = 64, .radix = 8, .levels = 3});
  const CheckSettings settings = check_settings("/var/lib/ibpm/baseline.cache");
  for (const std::string& gone : {tree.spines()[1], tree.leaves()[2]}) {
    for (bool cas : {false, true}) {
      DYNAMIC_SECTION(gone << (cas ? " with CAs" : " switches only")) {
        const Fabric full = delegation::test::fabric_of(tree.topology);
        // Another discovery order too: the output must not depend on it.
        const Fabric less = delegation::test::fabric_of(tree.topology, without(gone, 7));
        const MonitoringPlan before = plan_monitoring(full, nullptr, plan_options(cas));
        const MonitoringPlan after = plan_monitoring(less, nullptr, plan_options(cas));
        const std::set<std::string> neighbours = neighbours_of(tree, gone);
        // A spine is its leaves' parent; a leaf is its CAs' parent (when they are hosts).
        const bool neighbours_change = gone == tree.spines()[1] || cas;
        SECTION("nagios") {
          check_only_changes(nagios_files(before, settings), nagios_files(after, settings), gone,
                             neighbours, neighbours_change);
        }
        SECTION("icinga2") {
          check_only_changes(icinga_files(before, settings), icinga_files(after, settings), gone,
                             neighbours, neighbours_change);
        }
      }
    }
  }
}

TEST_CASE("the same fabric in another order gives the same files") {
  const sim::FatTree tree = sim::make_fat_tree({.hosts = 64, .radix = 8, .levels = 3});
  const CheckSettings settings = check_settings("");
  const MonitoringPlan a =
      plan_monitoring(delegation::test::fabric_of(tree.topology), nullptr, plan_options(true));
  const MonitoringPlan b = plan_monitoring(delegation::test::fabric_of(tree.topology, shuffled(3)),
                                           nullptr, plan_options(true));
  CHECK(nagios_files(a, settings) == nagios_files(b, settings));
  CHECK(icinga_files(a, settings) == icinga_files(b, settings));
}

TEST_CASE("with the package's CheckCommands the generator writes none of its own") {
  const sim::FatTree tree = sim::make_fat_tree({.hosts = 64, .radix = 8, .levels = 3});
  CheckSettings settings = check_settings("");
  for (unsigned zones : {0u, 2u}) {
    INFO(zones << " zones");
    const MonitoringPlan plan = plan_monitoring(delegation::test::fabric_of(tree.topology), nullptr,
                                                plan_options(true, zones));
    settings.packaged_commands = false;
    const ConfigFiles own = icinga_files(plan, settings);
    settings.packaged_commands = true;
    const ConfigFiles packaged = icinga_files(plan, settings);
    auto commands = [](const ConfigFiles& files) {
      std::size_t n = 0;
      for (const auto& [name, text] : files) n += name.ends_with("ibpm-commands.conf");
      return n;
    };
    CHECK(commands(own) == 1);
    CHECK(commands(packaged) == 0);
    CHECK(packaged.size() == own.size() - 1);  // everything else as before
  }
}
