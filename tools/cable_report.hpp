// SPDX-License-Identifier: MIT
// ibpm-routes --cable: for each direction of one cable, the host pairs whose route crosses it,
// the hosts among them as sources and as destinations (grouped by the leaf they hang off), and
// the jobs whose own traffic (pairs of the job's hosts) crosses it.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "route_check/route_names.hpp"
#include "route_path_report.hpp"
#include "routes/cable_pairs.hpp"
#include "routes/job_endpoints.hpp"

namespace ibpm::tools {

struct JobImpact {
  std::string id;
  std::size_t pairs = 0;  // pairs of the job's hosts crossing the direction
  std::size_t hosts = 0;  // the job's hosts among those pairs
};

struct DirectionImpact {
  PortRef from;
  PortRef to;
  std::vector<routes::EndpointPair> pairs;
  std::vector<std::size_t> sources;       // endpoints, sorted
  std::vector<std::size_t> destinations;  // endpoints, sorted
  std::vector<JobImpact> jobs;            // jobs with at least one pair, most pairs first
};

// Both directions of the cable at `port` (out of it first). Throws std::invalid_argument when
// the port has no cable.
std::vector<DirectionImpact> cable_impact(const routes::RouteMap& map, PortRef port,
                                          const std::vector<routes::JobEndpoints>& jobs);

enum class PairListing { counts, every_pair };

void print_cable_impact(std::ostream& out, const route_check::RouteNames& names,
                        const std::vector<DirectionImpact>& impact, ReportFormat format,
                        PairListing listing);

}  // namespace ibpm::tools
