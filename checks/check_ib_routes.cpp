// SPDX-License-Identifier: MIT
// check_ib_routes: how evenly each switch spreads destinations over its up-ports, from the
// forwarding tables (STATE_DIR/routes.lft, or read over the fabric with --refresh).
#include "plugin/cli_fwd.hpp"
#include "route_check/balance_check.hpp"

int main(int argc, char** argv) {
  ibpm::route_check::BalanceCheckOptions options;
  return ibpm::plugin::run_plugin(
      argc, argv,
      {.name = "check_ib_routes",
       .prefix = "IB ROUTES",
       .description =
           "Counts, for every switch with two or more up-ports, the destinations its linear "
           "forwarding table sends out of each up-port, and judges the spread (most minus "
           "fewest) against -w/-c: WARNING by default when any switch's spread is above 1. The "
           "long output names the switches whose spread alerts, worst first, with their "
           "up-ports' loads. The tables are read from STATE_DIR/routes.lft (written by "
           "ibpm-routes --refresh or check_ib_routes --refresh); switches missing from them or "
           "read at another LID are WARNING.",
       .add_options =
           [&](CLI::App& app) { ibpm::route_check::add_balance_check_options(app, options); },
       .body =
           [&](const ibpm::plugin::CommonOptions& common) {
             return ibpm::route_check::run_balance_check(options, common);
           },
       .summary = "How evenly each switch spreads destinations over its up-ports, from the "
                  "forwarding tables.",
       .icinga2_host_defaults = {}});
}
