// SPDX-License-Identifier: MIT

#include "routes/job_endpoints.hpp"

#include <map>
#include <string>

#include "jobs/hostlist.hpp"

namespace ibpm::routes {

std::vector<JobEndpoints> job_endpoints(const RouteMap& map, const NodeNameMap* names,
                                        const std::vector<jobs::Job>& jobs) {
  std::multimap<std::string, std::size_t> by_name;
  for (std::size_t i = 0; i < map.endpoints().size(); ++i) {
    const std::string name = display_name(map.fabric().node(map.endpoints()[i].port.node), names);
    by_name.emplace(name, i);
    if (const std::string host = jobs::host_name(name); !host.empty() && host != name)
      by_name.emplace(host, i);
  }
  std::vector<JobEndpoints> result;
  for (const jobs::Job& job : jobs) {
    JobEndpoints found{job.id, {}};
    for (const std::string& host : job.hosts) {
      auto [first, last] = by_name.equal_range(host);
      for (auto it = first; it != last; ++it) found.endpoints.insert(it->second);
    }
    result.push_back(std::move(found));
  }
  return result;
}

}  // namespace ibpm::routes
