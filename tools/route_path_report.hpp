// SPDX-License-Identifier: MIT
// ibpm-routes --path: the route from one host to another, hop by hop. The table is what
// ibtracert prints for the same pair, line for line:
//
//   From ca {0x0000000000100000} portnum 1 lid 1-1 "cn0001"
//   [1] -> switch port {0x0000000000200000}[1] lid 2-2 "leaf01"
//   ...
//   [6] -> ca port {0x0000000000100113}[1] lid 40-40 "cn0138"
//   To ca {0x0000000000100112} portnum 1 lid 40-40 "cn0138"
//
// A route that breaks ends with a line saying where and why instead of "To ...".
#pragma once

#include <ostream>

#include "plugin/report_format.hpp"
#include "route_check/route_names.hpp"
#include "routes/route_map.hpp"

namespace ibpm::tools {

using plugin::ReportFormat;

void print_route(std::ostream& out, const routes::RouteMap& map,
                 const route_check::RouteNames& names, PortRef source, PortRef destination,
                 const routes::Route& route, ReportFormat format);

}  // namespace ibpm::tools
