// SPDX-License-Identifier: MIT
// ibpm-routes --balance: per switch, how many destinations each up-port carries, worst spread
// first (check_ib_routes judges the same against -w/-c: route_check/balance_check.hpp).
#pragma once

#include <ostream>
#include <vector>

#include "levels/fabric_levels.hpp"
#include "route_check/route_names.hpp"
#include "route_path_report.hpp"
#include "routes/up_port_balance.hpp"

namespace ibpm::tools {

// rows: worst first; top: print only the first N (0: all).
void print_balance(std::ostream& out, const route_check::RouteNames& names,
                   const levels::FabricLevels& levels,
                   const std::vector<routes::SwitchBalance>& rows, ReportFormat format,
                   std::size_t top);

}  // namespace ibpm::tools
