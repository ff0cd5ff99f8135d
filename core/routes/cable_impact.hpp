// SPDX-License-Identifier: MIT
// Whom a cable in trouble hurts: the hosts whose traffic the forwarding tables route through it
// (either direction, as sources or destinations), and the jobs with traffic between their own
// hosts through it.
//   "carries traffic of 24 hosts (2 jobs: 1234, 1240)"
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "fabric/fabric.hpp"
#include "routes/job_endpoints.hpp"
#include "routes/route_map.hpp"

namespace ibpm::routes {

struct CableImpact {
  std::size_t hosts = 0;          // distinct endpoints whose routes cross the cable
  std::size_t pairs = 0;          // host pairs routed through it, both directions
  std::vector<std::string> jobs;  // jobs with a pair of their hosts through it, in file order
};

// `port`'s cable: the pairs leaving through `port`, and through `remote` (its far end) when given.
CableImpact cable_impact(const RouteMap& map, PortRef port, std::optional<PortRef> remote,
                         const std::vector<JobEndpoints>& jobs);

// One cable to judge: a port, and its far end when cabled.
struct CableEnds {
  PortRef port;
  std::optional<PortRef> remote;
};

// Whom each cable hurts, from the forwarding tables in STATE_DIR/routes.lft (read once for all)
// and the jobs file (empty: none). Empty without the tables file; throws std::runtime_error with
// a one-line reason when it or the jobs file cannot be read.
std::vector<CableImpact> impacts_from_state(const std::string& state_dir, const Fabric& fabric,
                                            const NodeNameMap* names,
                                            const std::vector<CableEnds>& cables,
                                            const std::string& jobs_file);

// "carries traffic of 24 hosts (2 jobs: 1234, 1240)"; at most `max_jobs` job ids named.
std::string describe(const CableImpact& impact, std::size_t max_jobs = 5);

}  // namespace ibpm::routes
