// SPDX-License-Identifier: MIT
// The cable directions each job's traffic crosses: every pair of the job's own hosts traced
// through the forwarding tables once, so a page or a map can name the jobs behind any cable
// without tracing every pair of the fabric for it. Costs hosts^2 routes per job.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "fabric/fabric.hpp"
#include "routes/job_endpoints.hpp"
#include "routes/route_map.hpp"

namespace ibpm::routes {

// By the port a direction leaves through: the ids of the jobs with a pair of their hosts routed
// through it, in jobs order.
std::map<PortRef, std::vector<std::string>> job_directions(const RouteMap& map,
                                                           const std::vector<JobEndpoints>& jobs);

}  // namespace ibpm::routes
