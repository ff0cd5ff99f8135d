#include "job_endpoints.hpp"

#include <map>
#include <string>

namespace ibpm {

std::vector<JobEndpoints> job_endpoints(const routes::RouteMap& map, const NodeNameMap* names,
                                        const std::vector<jobs::Job>& jobs) {
  std::multimap<std::string, std::size_t> by_name;
  for (std::size_t i = 0; i < map.endpoints().size(); ++i) {
    const std::string name = display_name(map.fabric().node(map.endpoints()[i].port.node), names);
    by_name.emplace(name, i);
    const std::size_t blank = name.find(' ');
    if (blank != std::string::npos && blank > 0) by_name.emplace(name.substr(0, blank), i);
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

}  // namespace ibpm
