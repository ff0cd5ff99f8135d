// SPDX-License-Identifier: MIT
// Which endpoints each job runs on: a job's host names (Slurm names, "cn0001") matched against
// the hosts' names in the fabric: the whole name, or its first word (NodeDescriptions read like
// "cn0001 HCA-1"). Hosts the fabric does not know are left out.
#pragma once

#include <set>
#include <vector>

#include "fabric/node_name_map.hpp"
#include "jobs/jobs_file.hpp"
#include "routes/route_map.hpp"

namespace ibpm::routes {

struct JobEndpoints {
  std::string id;
  std::set<std::size_t> endpoints;  // indices into RouteMap::endpoints()
};

std::vector<JobEndpoints> job_endpoints(const RouteMap& map, const NodeNameMap* names,
                                        const std::vector<jobs::Job>& jobs);

}  // namespace ibpm::routes
