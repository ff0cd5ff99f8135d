// SPDX-License-Identifier: MIT
// ibpm-routes --cables: every cable direction with the number of host pairs routed through it,
// the most loaded first: where a failure hurts most, and how evenly the routing spreads pairs.
#pragma once

#include <ostream>

#include "route_check/route_names.hpp"
#include "route_path_report.hpp"
#include "routes/route_map.hpp"

namespace ibpm::tools {

// A host cable carries all of its host's pairs each way, nothing the routing chose.
enum class HostCables { left_out, listed };

// top: only the first N directions (0: all).

void print_cable_loads(std::ostream& out, const routes::RouteMap& map,
                       const route_check::RouteNames& names, ReportFormat format, std::size_t top,
                       HostCables host_cables);

}  // namespace ibpm::tools
