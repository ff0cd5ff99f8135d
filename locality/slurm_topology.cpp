// SPDX-License-Identifier: MIT

#include "locality/slurm_topology.hpp"

#include <algorithm>
#include <functional>
#include <map>
#include <set>
#include <sstream>
#include <stdexcept>

#include "base/input_file.hpp"
#include "fabric/node_name_map.hpp"
#include "jobs/hostlist.hpp"
#include "locality/host_index.hpp"
#include "locality/slurm_names.hpp"

namespace ibpm::locality {

namespace {

struct SlurmSwitch {
  int line = 0;
  std::vector<std::string> nodes;
  std::vector<std::string> switches;
};

std::string lower(std::string text) {
  for (char& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return text;
}

std::map<std::string, SlurmSwitch> parse(const std::string& path) {
  std::ifstream in = base::open_input_file(path);
  std::map<std::string, SlurmSwitch> switches;
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    auto fail = [&](const std::string& reason) {
      return std::runtime_error(path + ":" + std::to_string(number) + ": " + reason);
    };
    line = line.substr(0, line.find('#'));
    std::istringstream words(line);
    std::string word, name;
    SlurmSwitch sw;
    sw.line = number;
    while (words >> word) {
      std::size_t eq = word.find('=');
      if (eq == std::string::npos) throw fail("expected KEY=VALUE, not '" + word + "'");
      std::string key = lower(word.substr(0, eq)), value = word.substr(eq + 1);
      try {
        if (key == "switchname")
          name = value;
        else if (key == "nodes")
          sw.nodes = jobs::expand_hostlist(value);
        else if (key == "switches")
          sw.switches = jobs::expand_hostlist(value);
        // LinkSpeed and other keys do not change the sets.
      } catch (const std::invalid_argument& e) {
        throw fail(e.what());
      }
    }
    if (name.empty()) {
      if (!sw.nodes.empty() || !sw.switches.empty()) throw fail("no SwitchName=");
      continue;
    }
    if (!switches.emplace(name, std::move(sw)).second) throw fail("switch " + name + " twice");
  }
  return switches;
}

}  // namespace

std::vector<NodeSet> load_slurm_topology(const std::string& path, const Fabric& fabric,
                                         const DownSets& down, const NodeNameMap* names) {
  auto switches = parse(path);
  HostIndex index(fabric, names);
  std::map<std::string, std::set<std::size_t>> hosts_of;
  std::set<std::string> visiting;
  // Hosts below a switch: its own nodes and those of the switches it lists.
  std::function<const std::set<std::size_t>&(const std::string&)> collect =
      [&](const std::string& name) -> const std::set<std::size_t>& {
    if (auto done = hosts_of.find(name); done != hosts_of.end()) return done->second;
    const SlurmSwitch& sw = switches.at(name);
    if (!visiting.insert(name).second)
      throw std::runtime_error(path + ":" + std::to_string(sw.line) + ": switch " + name +
                               " is its own descendant");
    std::set<std::size_t> hosts;
    for (const auto& node : sw.nodes)
      for (std::size_t i : index.find(node)) hosts.insert(i);
    for (const auto& child : sw.switches) {
      if (!switches.contains(child))
        throw std::runtime_error(path + ":" + std::to_string(sw.line) + ": unknown switch " +
                                 child);
      const auto& below = collect(child);
      hosts.insert(below.begin(), below.end());
    }
    visiting.erase(name);
    return hosts_of[name] = std::move(hosts);
  };

  std::vector<NodeSet> sets;
  for (const auto& [name, sw] : switches) {
    const auto& hosts = collect(name);
    if (hosts.empty()) continue;
    NodeSet set;
    set.name = name;
    set.hosts.assign(hosts.begin(), hosts.end());
    add_inner_switches(set, fabric, down);
    sets.push_back(std::move(set));
  }
  return sets;
}

std::string slurm_switch_name(const std::string& name) {
  std::string out;
  for (char c : name)
    out +=
        std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '_' || c == '-' ? c : '_';
  if (!out.empty() && out.front() == '-') out.front() = '_';
  return out.empty() ? "_" : out;
}

std::vector<std::string> write_slurm_topology(std::ostream& out, const Fabric& fabric,
                                              const levels::FabricLevels& levels,
                                              const NodeNameMap* names) {
  const auto& nodes = fabric.nodes();
  std::vector<std::size_t> hosts, switches;
  for (std::size_t i = 0; i < nodes.size(); ++i)
    if (levels::is_host(nodes[i])) hosts.push_back(i);
  for (int level = levels::kLeafLevel; level <= levels.top(); ++level)
    for (std::size_t s : levels.switches_at(level)) switches.push_back(s);
  const SlurmNames slurm = slurm_names(fabric, hosts, switches, names);

  out << "# Slurm topology.conf (topology/tree) of the InfiniBand fabric, written by "
         "ibpm-locality\n";
  for (int level = levels::kLeafLevel; level <= levels.top(); ++level) {
    std::vector<std::string> lines;
    for (std::size_t s : levels.switches_at(level)) {
      std::vector<std::string> host_names, below;
      nodes[s].for_each_port([&](const Port& port) {
        auto peer = fabric.remote({nodes[s].guid, port.number});
        if (!peer) return;
        std::size_t n = fabric.index_of(peer->node);
        if (levels::is_host(nodes[n])) {
          if (auto name = slurm.hosts.find(nodes[n].guid); name != slurm.hosts.end())
            host_names.push_back(name->second);
        } else if (nodes[n].type == NodeType::sw && levels.level(n) == level - 1) {
          below.push_back(slurm.switches.at(nodes[n].guid));
        }
      });
      std::string line = "SwitchName=" + slurm.switches.at(nodes[s].guid);
      if (!below.empty()) line += " Switches=" + jobs::compress_hostlist(below);
      if (!host_names.empty()) line += " Nodes=" + jobs::compress_hostlist(host_names);
      if (below.empty() && host_names.empty()) continue;
      lines.push_back(line);
    }
    std::sort(lines.begin(), lines.end());
    out << "# " << levels.name(level) << "\n";
    for (const auto& line : lines) out << line << "\n";
  }
  return slurm.warnings;
}

}  // namespace ibpm::locality
