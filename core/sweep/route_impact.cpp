#include "sweep/route_impact.hpp"

#include <algorithm>
#include <filesystem>

#include "routes/cable_impact.hpp"
#include "routes/lft_file.hpp"

namespace ibpm::sweep {

std::vector<std::string> add_route_impact(const SweepOptions& options, const SweepResult& sweep,
                                          const std::string& jobs_file, std::size_t max_ports,
                                          std::vector<PortVerdict>& verdicts) {
  std::vector<std::size_t> bad;
  for (std::size_t i = 0; i < verdicts.size(); ++i)
    if (verdicts[i].state != plugin::State::ok && verdicts[i].result->sample.answered)
      bad.push_back(i);
  const std::string path = routes::lft_file_path(options.fabric.state_dir);
  if (bad.empty() || !std::filesystem::exists(path)) return {};
  std::vector<std::string> problems;
  try {
    const routes::ForwardingTables tables = routes::read_lft_file(path);
    const routes::RouteMap map(sweep.topology.fabric, tables);
    std::vector<JobEndpoints> jobs;
    if (!jobs_file.empty()) jobs = job_endpoints(map, sweep.name_map(), jobs::read_jobs_file(jobs_file));
    // The worst first, as the long output orders them: only those it names are worked out.
    std::stable_sort(bad.begin(), bad.end(), [&](std::size_t a, std::size_t b) {
      return plugin::severity(verdicts[a].state) > plugin::severity(verdicts[b].state);
    });
    if (bad.size() > max_ports) bad.resize(max_ports);
    for (std::size_t i : bad) {
      const poll::PortTarget& target = verdicts[i].result->target;
      const routes::CableImpact impact = routes::cable_impact(
          map, PortRef{target.node, target.port}, target.remote, jobs);
      verdicts[i].check.children.push_back(
          {plugin::State::ok, routes::describe(impact), {}, {}});
    }
  } catch (const std::exception& e) {
    problems.push_back(std::string("routes: ") + e.what());
  }
  return problems;
}

}  // namespace ibpm::sweep
