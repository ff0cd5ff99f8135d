// SPDX-License-Identifier: MIT

#include "sweep/congestion_roots.hpp"

#include <algorithm>
#include <filesystem>

#include "routes/lft_file.hpp"
#include "thresholds/metrics.hpp"

namespace ibpm::sweep {

namespace {

// "leaf01[1] -> cn0001[1]", or the port alone when it has no cable.
std::string direction_name(const Fabric& fabric, const PortRef& port, const NodeNameMap* names) {
  std::string text = port_name(fabric, port, names);
  if (const auto peer = fabric.remote(port)) text += " -> " + port_name(fabric, *peer, names);
  return text;
}

}  // namespace

std::map<PortRef, CongestionNote> congestion_notes(const routes::RouteMap& map,
                                                   const routes::EgressLoads& loads,
                                                   const NodeNameMap* names) {
  // Only the ports that wait carry a wait share (sweep_loads): any share is over the threshold.
  const routes::CongestionThresholds thresholds{.wait = 0, .busy = 0.9};
  const routes::CongestionReport report = routes::find_congestion(map, loads, thresholds);
  std::map<PortRef, CongestionNote> notes;
  for (const routes::CongestedPort& p : report.ports) {
    if (p.role == routes::CongestionRole::victim) {
      std::string roots;
      for (std::size_t t : p.trees)
        roots += (roots.empty() ? "" : ", ") +
                 direction_name(map.fabric(), report.ports[report.trees[t].root].port, names);
      notes[p.port] = {CongestionPart::victim,
                       std::string("xmit_wait over threshold: ") +
                           (p.trees.size() == 1 ? "root is " : "roots are ") + roots};
      continue;
    }
    const auto load = loads.find(p.port);
    if (load != loads.end() && load->second.wait_share) {
      notes[p.port] = {CongestionPart::root,
                       "xmit_wait over threshold: root itself (nothing full or waiting beyond it)"};
      continue;
    }
    std::size_t behind = 0;
    for (std::size_t t : p.trees) behind += report.trees[t].victims.size();
    notes[p.port] = {CongestionPart::root, "congestion root: " + std::to_string(behind) +
                                               (behind == 1 ? " port" : " ports") +
                                               " over their xmit_wait threshold wait behind it"};
  }
  return notes;
}

// A port waits over its xmit_wait threshold.
bool waits(const SweepResult& sweep, const poll::PortResult& result) {
  return result.sample.answered && result.rates.xmit_wait_pct &&
         sweep.thresholds.evaluate(thresholds::kXmitWaitPctIndex, *result.rates.xmit_wait_pct) !=
             plugin::State::ok;
}

routes::EgressLoads sweep_loads(const SweepResult& sweep) {
  routes::EgressLoads loads;
  for (const poll::PortResult& result : sweep.results) {
    if (!result.sample.answered) continue;
    routes::EgressLoad load;
    if (result.rates.xmit_util_pct) load.utilization = *result.rates.xmit_util_pct / 100.0;
    if (waits(sweep, result)) load.wait_share = *result.rates.xmit_wait_pct / 100.0;
    if (load.utilization || load.wait_share)
      loads.emplace(PortRef{result.target->node, result.target->port}, load);
  }
  return loads;
}

std::vector<std::string> add_congestion_roots(const SweepOptions& options, const SweepResult& sweep,
                                              std::vector<PortVerdict>& verdicts) {
  // Most sweeps: no port waits, and neither the loads nor the tables are read.
  if (std::none_of(sweep.results.begin(), sweep.results.end(),
                   [&sweep](const poll::PortResult& result) { return waits(sweep, result); }))
    return {};
  const routes::EgressLoads loads = sweep_loads(sweep);
  const std::string path = routes::lft_file_path(options.fabric.state_dir);
  if (!std::filesystem::exists(path)) return {};
  try {
    const routes::ForwardingTables tables = routes::read_lft_file(path);
    const routes::RouteMap map(sweep.topology.fabric, tables);
    const std::map<PortRef, CongestionNote> notes = congestion_notes(map, loads, sweep.name_map());
    for (PortVerdict& verdict : verdicts) {
      const poll::PortTarget& target = *verdict.result->target;
      const auto note = notes.find(PortRef{target.node, target.port});
      if (note == notes.end()) continue;
      verdict.congestion = note->second.part;
      if (verdict.detail)  // an OK port shows nothing
        verdict.detail->check.children.push_back({plugin::State::ok, note->second.text, {}, {}});
    }
  } catch (const std::exception& e) {
    return {std::string("congestion roots: ") + e.what()};
  }
  return {};
}

}  // namespace ibpm::sweep
