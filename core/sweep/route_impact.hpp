// SPDX-License-Identifier: MIT
// Whom the ports in trouble hurt: for the worst ports of a sweep (those the long output names),
// the hosts whose traffic the switches' forwarding tables route through their cable, and the
// jobs on those hosts (--jobs FILE, as `squeue -h -o "%A %N"` prints it). Read from
// STATE_DIR/routes.lft (ibpm-routes --refresh writes it); without it nothing is added.
#pragma once

#include <string>
#include <vector>

#include "sweep/sweep.hpp"
#include "sweep/sweep_report.hpp"

namespace ibpm::sweep {

// Adds "carries traffic of N hosts (M jobs: ...)" to the `max_ports` worst verdicts that are not
// OK. Returns why it could not (an unreadable tables or jobs file), for the long output.
std::vector<std::string> add_route_impact(const SweepOptions& options, const SweepResult& sweep,
                                          const std::string& jobs_file, std::size_t max_ports,
                                          std::vector<PortVerdict>& verdicts);

}  // namespace ibpm::sweep
