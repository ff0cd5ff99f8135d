// SPDX-License-Identifier: MIT

#include "routes/job_routes.hpp"

#include <set>

namespace ibpm::routes {

std::map<PortRef, std::vector<std::string>> job_directions(const RouteMap& map,
                                                           const std::vector<JobEndpoints>& jobs) {
  std::map<PortRef, std::vector<std::string>> directions;
  const auto& endpoints = map.endpoints();
  for (const JobEndpoints& job : jobs) {
    std::set<PortRef> crossed;
    for (std::size_t source : job.endpoints)
      for (std::size_t destination : job.endpoints) {
        if (source == destination) continue;
        const Route route = map.trace(endpoints[source].port, endpoints[destination].lid);
        for (const Hop& hop : route.hops) crossed.insert(hop.from);
      }
    for (const PortRef& from : crossed) directions[from].push_back(job.id);
  }
  return directions;
}

}  // namespace ibpm::routes
