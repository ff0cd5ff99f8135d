// SPDX-License-Identifier: MIT

#include "monitoring_plan.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <stdexcept>

#include "config_text.hpp"
#include "delegation/delegation.hpp"
#include "delegation/split_nodes.hpp"
#include "fabric/graph.hpp"
#include "levels/fabric_levels.hpp"
#include "products/monitoring_names.hpp"
#include "sweep/fabric_targets.hpp"

namespace ibpm::nagios_config {

namespace {

// The shard (1..N) of every node with ports to poll: the shard holding most of its ports (the
// lowest on a tie).
std::map<Guid, unsigned> node_shards(const Fabric& fabric, const NodeNameMap* names,
                                     const ZoneOptions& zones, std::vector<std::size_t>& loads) {
  const auto targets = sweep::fabric_port_targets(fabric, names, sweep::NodeFilter::all).targets;
  delegation::DelegationFile file;
  if (!zones.delegation_file.empty())
    file = delegation::load_delegation_file(zones.delegation_file, fabric, names);
  std::vector<unsigned> assignment;
  try {
    assignment = delegation::assign_shards(
        fabric, targets, zones.count, file,
        zones.nearest ? delegation::AssignMode::nearest : delegation::AssignMode::even);
  } catch (const std::invalid_argument& e) {
    throw std::runtime_error(
        zones.delegation_file.empty() ? e.what() : zones.delegation_file + ": " + e.what());
  }
  loads = delegation::shard_loads(assignment, zones.count);
  // The same rule as the sweep's for whose passive result a split switch gets: its zone's
  // satellite is the one that submits it.
  std::map<Guid, std::vector<delegation::PortShard>> ports;
  for (std::size_t i = 0; i < targets.size(); ++i)
    ports[targets[i].node].push_back({targets[i].port, assignment[i]});
  std::map<Guid, unsigned> shard;
  for (const auto& [guid, node_ports] : ports) shard[guid] = delegation::owning_shard(node_ports);
  return shard;
}

}  // namespace

bool is_reserved_name(const std::string& name) { return products::is_reserved_name(name); }

MonitoringPlan plan_monitoring(const Fabric& fabric, const NodeNameMap* names,
                               const PlanOptions& options) {
  if (object_name(options.fabric_host) != options.fabric_host || options.fabric_host.empty() ||
      is_reserved_name(options.fabric_host))
    throw std::runtime_error("--fabric-host " + options.fabric_host + ": not a usable object name");
  MonitoringPlan plan;
  plan.fabric_host = options.fabric_host;
  const FabricGraph graph = make_graph(fabric);
  const levels::FabricLevels levels(fabric, graph);

  std::vector<std::size_t> chosen;
  for (std::size_t i = 0; i < fabric.nodes().size(); ++i)
    if (products::has_host(fabric.nodes()[i], options.cas)) chosen.push_back(i);
  const std::map<Guid, std::string> object_names =
      products::host_names(fabric, names, options.cas, options.fabric_host);

  std::map<Guid, unsigned> shards;
  if (options.zones.count > 0) {
    std::vector<std::size_t> loads;
    shards = node_shards(fabric, names, options.zones, loads);
    if (options.zones.endpoints < 1 || options.zones.endpoints > 2)
      throw std::runtime_error("a zone has one or two endpoints, not " +
                               std::to_string(options.zones.endpoints));
    for (unsigned k = 1; k <= options.zones.count; ++k) {
      PlannedZone zone{k, options.zones.zone_prefix + std::to_string(k), {}, {}, loads[k - 1]};
      const std::string endpoint = options.zones.endpoint_prefix + std::to_string(k);
      if (options.zones.endpoints == 1)
        zone.endpoints = {endpoint};
      else
        zone.endpoints = {endpoint + "a", endpoint + "b"};
      zone.shard_host = object_name(options.fabric_host + "-shard-" + std::to_string(k));
      for (const auto& [guid, name] : object_names)
        if (name == zone.shard_host)
          throw std::runtime_error("a node is named " + name + ", the host of shard " +
                                   std::to_string(k) + ": choose another --fabric-host");
      plan.zones.push_back(std::move(zone));
    }
  }

  std::map<std::string, std::string> group_alias;
  for (std::size_t i : chosen) {
    const Node& node = fabric.nodes()[i];
    PlannedHost host;
    host.guid = node.guid;
    host.is_switch = node.type == NodeType::sw;
    host.name = object_names.at(node.guid);
    host.display = display_name(node, names);
    host.description = node.description;
    const int level = levels.level(i);
    if (level != levels::kNoLevel) host.level = levels.name(level);
    // Parents: switch neighbours one level up for a switch, every switch neighbour for a CA.
    std::set<std::string> parents;
    for (auto [edge, end] = boost::out_edges(i, graph); edge != end; ++edge) {
      const std::size_t j = boost::target(*edge, graph);
      const Node& peer = fabric.nodes()[j];
      if (j == i || peer.type != NodeType::sw) continue;
      if (host.is_switch && (level == levels::kNoLevel || levels.level(j) != level + 1)) continue;
      parents.insert(object_names.at(peer.guid));
      if (!host.is_switch && levels.level(j) == levels::kLeafLevel) {
        host.groups.push_back(object_name("ib-leaf-" + object_names.at(peer.guid)));
      }
    }
    host.parents.assign(parents.begin(), parents.end());
    if (host.is_switch && level == levels::kLeafLevel) {
      const std::string group = object_name("ib-leaf-" + host.name);
      host.groups.push_back(group);
      group_alias[group] = "InfiniBand leaf " + host.display + " and its hosts";
    }
    if (!host.level.empty()) {
      const std::string group = object_name("ib-level-" + host.level);
      host.groups.push_back(group);
      group_alias[group] = "InfiniBand fabric level: " + host.level;
    }
    std::sort(host.groups.begin(), host.groups.end());
    host.groups.erase(std::unique(host.groups.begin(), host.groups.end()), host.groups.end());
    if (auto it = shards.find(node.guid); it != shards.end()) host.zone = it->second;
    (host.is_switch ? plan.switches : plan.cas) += 1;
    plan.hosts.push_back(std::move(host));
  }
  // A CA's leaf group exists only through its leaf.
  for (PlannedHost& host : plan.hosts)
    std::erase_if(host.groups, [&](const std::string& g) { return !group_alias.contains(g); });
  for (const auto& [name, alias] : group_alias) plan.groups.push_back({name, alias});
  std::sort(plan.hosts.begin(), plan.hosts.end(),
            [](const PlannedHost& a, const PlannedHost& b) { return a.name < b.name; });
  return plan;
}

}  // namespace ibpm::nagios_config
