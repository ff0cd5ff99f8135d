// SPDX-License-Identifier: MIT
// ibpm-routes --balance: per switch, how many destinations each up-port carries, worst spread
// first; and the same judged as a Nagios check (the spread against -w/-c).
#pragma once

#include <ostream>
#include <vector>

#include "levels/fabric_levels.hpp"
#include "plugin/range.hpp"
#include "plugin/result.hpp"
#include "route_names.hpp"
#include "route_path_report.hpp"
#include "routes/up_port_balance.hpp"

namespace ibpm {

// rows: worst first; top: print only the first N (0: all).
void print_balance(std::ostream& out, const RouteNames& names, const levels::FabricLevels& levels,
                   const std::vector<routes::SwitchBalance>& rows, ReportFormat format,
                   std::size_t top);

// OK/WARNING/CRITICAL by the worst spread against the thresholds; one subcheck per switch
// whose spread alerts, the worst `listed` of them (0: all) and one line for the rest; perfdata
// worst_spread, unbalanced_switches (spread alerting), switches.
plugin::Check balance_check(const RouteNames& names, const std::vector<routes::SwitchBalance>& rows,
                            const plugin::Thresholds& thresholds, std::size_t listed);

}  // namespace ibpm
