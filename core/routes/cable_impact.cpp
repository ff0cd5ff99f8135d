// SPDX-License-Identifier: MIT

#include "routes/cable_impact.hpp"

#include <filesystem>
#include <set>
#include <unordered_map>

#include "routes/cable_pairs.hpp"
#include "routes/lft_file.hpp"

namespace ibpm::routes {

CableImpact cable_impact(const RouteMap& map, PortRef port, std::optional<PortRef> remote,
                         const std::vector<JobEndpoints>& jobs) {
  // The jobs of each endpoint (a host runs one job or a few), so a pair costs a lookup, not a
  // pass over every job.
  std::unordered_map<std::size_t, std::vector<std::size_t>> jobs_of;
  for (std::size_t j = 0; j < jobs.size(); ++j)
    for (std::size_t endpoint : jobs[j].endpoints) jobs_of[endpoint].push_back(j);
  std::set<std::size_t> hosts;
  std::vector<bool> hurt(jobs.size(), false);
  CableImpact impact;
  for (const std::optional<PortRef>& from : {std::optional<PortRef>(port), remote}) {
    if (!from) continue;
    for (const auto& [source, destination] : pairs_through(map, *from)) {
      hosts.insert(source);
      hosts.insert(destination);
      ++impact.pairs;
      // A job's traffic is between its own hosts: it is hurt when such a pair crosses.
      if (const auto found = jobs_of.find(source); found != jobs_of.end())
        for (std::size_t j : found->second)
          if (!hurt[j] && jobs[j].endpoints.count(destination)) hurt[j] = true;
    }
  }
  impact.hosts = hosts.size();
  for (std::size_t j = 0; j < jobs.size(); ++j)
    if (hurt[j]) impact.jobs.push_back(jobs[j].id);
  return impact;
}

std::vector<CableImpact> impacts_from_state(const std::string& state_dir, const Fabric& fabric,
                                            const NodeNameMap* names,
                                            const std::vector<CableEnds>& cables,
                                            const std::string& jobs_file) {
  const std::string path = lft_file_path(state_dir);
  if (cables.empty() || !std::filesystem::exists(path)) return {};
  const ForwardingTables tables = read_lft_file(path);
  const RouteMap map(fabric, tables);
  std::vector<JobEndpoints> jobs;
  if (!jobs_file.empty()) jobs = job_endpoints(map, names, jobs::read_jobs_file(jobs_file));
  std::vector<CableImpact> impacts;
  impacts.reserve(cables.size());
  for (const CableEnds& cable : cables)
    impacts.push_back(cable_impact(map, cable.port, cable.remote, jobs));
  return impacts;
}

std::string describe(const CableImpact& impact, std::size_t max_jobs) {
  std::string text = "carries traffic of " + std::to_string(impact.hosts) +
                     (impact.hosts == 1 ? " host" : " hosts");
  if (!impact.jobs.empty()) {
    text += " (" + std::to_string(impact.jobs.size()) +
            (impact.jobs.size() == 1 ? " job: " : " jobs: ");
    for (std::size_t i = 0; i < impact.jobs.size() && i < max_jobs; ++i)
      text += (i ? ", " : "") + impact.jobs[i];
    if (impact.jobs.size() > max_jobs) text += ", ...";
    text += ")";
  }
  return text;
}

}  // namespace ibpm::routes
