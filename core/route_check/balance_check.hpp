// SPDX-License-Identifier: MIT
// check_ib_routes: how evenly each switch spreads destinations over its up-ports, judged as a
// Nagios check (the spread against -w/-c), from the forwarding tables of STATE_DIR/routes.lft or,
// with --refresh, read over the fabric first.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "plugin/cli.hpp"
#include "plugin/range.hpp"
#include "plugin/result.hpp"
#include "route_check/route_names.hpp"
#include "route_check/routes_source.hpp"
#include "routes/up_port_balance.hpp"

namespace ibpm::route_check {

struct BalanceCheckOptions {
  RoutesSourceOptions source;
  bool refresh = false;
  plugin::Thresholds thresholds{plugin::parse_range("1"), std::nullopt};
  std::size_t top = 20;
};

// The fabric, MAD, --refresh, --top and -w/-c options.
void add_balance_check_options(CLI::App& app, BalanceCheckOptions& options);

// Loads the topology and tables, then balance_check; problems of the tables (switches not read,
// tables older than the topology) are WARNING subchecks. Throws with a one-line reason.
plugin::Check run_balance_check(BalanceCheckOptions& options, const plugin::CommonOptions& common);

// OK/WARNING/CRITICAL by the worst spread against the thresholds; one subcheck per switch
// whose spread alerts, the worst `listed` of them (0: all) and one line for the rest; perfdata
// worst_spread, unbalanced_switches (spread alerting), switches.
plugin::Check balance_check(const RouteNames& names, const std::vector<routes::SwitchBalance>& rows,
                            const plugin::Thresholds& thresholds, std::size_t listed);

// "7:30 8:29 ...": each up-port and the destinations it carries.
std::string up_port_loads(const routes::SwitchBalance& row);

}  // namespace ibpm::route_check
