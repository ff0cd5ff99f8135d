// SPDX-License-Identifier: MIT

#include "sweep/route_impact.hpp"

#include <algorithm>

#include "routes/cable_impact.hpp"

namespace ibpm::sweep {

std::vector<std::string> add_route_impact(const SweepOptions& options, const SweepResult& sweep,
                                          const std::string& jobs_file, std::size_t max_ports,
                                          std::vector<PortVerdict>& verdicts) {
  std::vector<std::size_t> bad;
  for (std::size_t i = 0; i < verdicts.size(); ++i)
    if (verdicts[i].detail && verdicts[i].result->sample.answered)  // not OK
      bad.push_back(i);
  // The worst first, as the long output orders them: only those it names are worked out.
  std::stable_sort(bad.begin(), bad.end(), [&](std::size_t a, std::size_t b) {
    return plugin::severity(verdicts[a].state) > plugin::severity(verdicts[b].state);
  });
  if (bad.size() > max_ports) bad.resize(max_ports);
  std::vector<routes::CableEnds> cables;
  for (std::size_t i : bad) {
    const poll::PortTarget& target = *verdicts[i].result->target;
    cables.push_back({PortRef{target.node, target.port}, target.remote});
  }
  try {
    const std::vector<routes::CableImpact> impacts = routes::impacts_from_state(
        options.fabric.state_dir, sweep.topology.fabric, sweep.name_map(), cables, jobs_file);
    for (std::size_t k = 0; k < impacts.size(); ++k)
      verdicts[bad[k]].detail->check.children.push_back(
          {plugin::State::ok, routes::describe(impacts[k]), {}, {}});
  } catch (const std::exception& e) {
    return {std::string("routes: ") + e.what()};
  }
  return {};
}

}  // namespace ibpm::sweep
