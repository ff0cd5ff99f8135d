// SPDX-License-Identifier: MIT

#include "products/switch_results.hpp"

#include <algorithm>
#include <map>

#include "delegation/split_nodes.hpp"
#include "plugin/render.hpp"
#include "poll/node_report.hpp"
#include "poll/port_check.hpp"
#include "products/monitoring_names.hpp"

namespace ibpm::products {

namespace {

using plugin::State;

// "leaf01: 2 of 12 ports not read by the sweep (leaf01[3]: no answer after 4 tries)".
plugin::Check not_all_read(const std::string& node,
                           const std::vector<const poll::PortResult*>& ports) {
  std::size_t missing = 0;
  const poll::PortResult* first = nullptr;
  for (const poll::PortResult* p : ports) {
    if (p->sample.answered) continue;
    ++missing;
    if (!first) first = p;
  }
  const std::string why = first->sample.cut             ? "the sweep's time ran out"
                          : first->sample.error.empty() ? "not answered"
                                                        : first->sample.error;
  return plugin::unknown_check(node + ": " + std::to_string(missing) + " of " +
                               std::to_string(ports.size()) + " ports not read by the sweep (" +
                               first->target->name + ": " + why + ")");
}

// The node's cabled ports (port 0 aside) that this sweep did not read: check_ib_node reads them
// all, a sweep's share may hold only some of them.
std::vector<PortNumber> ports_not_in_sweep(const Fabric& fabric, const Node& node,
                                           const std::vector<const poll::PortResult*>& read) {
  std::vector<PortNumber> missing;
  node.for_each_port([&](const Port& p) {
    if (p.number == 0 || !fabric.remote(PortRef{node.guid, p.number})) return;
    const bool in_sweep = std::any_of(read.begin(), read.end(), [&](const poll::PortResult* r) {
      return r->target->port == p.number;
    });
    if (!in_sweep) missing.push_back(p.number);
  });
  return missing;
}

// What the result says of the ports it does not cover: the shards that read them, or that this
// sweep did not have them.
std::string not_covered(const std::vector<PortNumber>& missing,
                        const delegation::SplitNodes::const_iterator split,
                        const delegation::SplitNodes& splits, unsigned shard) {
  if (split != splits.end()) return "ports " + delegation::ports_elsewhere(split->second, shard);
  return "ports " + delegation::format_port_list(missing) + " not in this sweep";
}

}  // namespace

SwitchResults switch_results(const sweep::SweepOptions& options, const sweep::SweepResult& sweep,
                             const SwitchResultOptions& settings) {
  const Fabric& fabric = sweep.topology.fabric;
  const std::map<Guid, std::string> hosts =
      host_names(fabric, sweep.name_map(), settings.cas, settings.fabric_host);
  std::map<Guid, std::vector<const poll::PortResult*>> by_node;
  for (const poll::PortResult& r : sweep.results)
    if (r.target->type == NodeType::sw) by_node[r.target->node].push_back(&r);
  const poll::NodeReportSettings report{poll::report_settings(options, sweep.thresholds),
                                        settings.shown};
  SwitchResults out;
  for (const Node& node : fabric.nodes()) {
    const auto ports = by_node.find(node.guid);
    const auto host = hosts.find(node.guid);
    if (ports == by_node.end() || host == hosts.end()) continue;
    // A switch split across shards: one shard speaks for it, every shard agreeing which.
    const auto split = sweep.split_nodes.find(node.guid);
    if (split != sweep.split_nodes.end() &&
        delegation::owning_shard(split->second) != options.shard.index) {
      ++out.elsewhere;
      continue;
    }
    const std::string name = display_name(node, sweep.name_map());
    bool all_read = true;
    for (const poll::PortResult* p : ports->second) all_read = all_read && p->sample.answered;
    plugin::Check check = all_read ? poll::node_report(name, ports->second, report)
                                   : not_all_read(name, ports->second);
    const std::vector<PortNumber> missing = ports_not_in_sweep(fabric, node, ports->second);
    if (!missing.empty())
      check.summary += "; " + not_covered(missing, split, sweep.split_nodes, options.shard.index);
    std::vector<std::string> perfdata;
    for (const plugin::Perfdata& item : plugin::collect_perfdata(check))
      perfdata.push_back(plugin::format_perfdata(item));
    out.results.push_back({host->second, settings.service, plugin::effective_state(check),
                           plugin::render_text(check, "IB NODE"), std::move(perfdata)});
  }
  return out;
}

}  // namespace ibpm::products
