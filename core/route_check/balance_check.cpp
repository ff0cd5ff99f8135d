// SPDX-License-Identifier: MIT

#include "route_check/balance_check.hpp"

#include <chrono>
#include <optional>

#include "fabric/graph.hpp"
#include "levels/fabric_levels.hpp"
#include "plugin/options.hpp"
#include "routes/route_map.hpp"

namespace ibpm::route_check {

namespace {

std::string describe(const RouteNames& names, const routes::SwitchBalance& row) {
  return names.node(row.node) + ": " + std::to_string(row.up_ports.size()) + " up-ports carry " +
         std::to_string(row.fewest) + ".." + std::to_string(row.most) + " destinations (spread " +
         std::to_string(row.spread()) + "; port:destinations " + up_port_loads(row) + ")";
}

}  // namespace

std::string up_port_loads(const routes::SwitchBalance& row) {
  std::string text;
  for (const routes::UpPortLoad& up : row.up_ports)
    text +=
        (text.empty() ? "" : " ") + std::to_string(up.port) + ":" + std::to_string(up.destinations);
  return text;
}

void add_balance_check_options(CLI::App& app, BalanceCheckOptions& options) {
  plugin::add_fabric_options(app, options.source.fabric);
  const std::string balance = "Balance";
  plugin::add_refresh_routes_flag(
      app, options.refresh,
      "Read every switch's forwarding table over the fabric first (and, without --cache, "
      "discover the topology again) and keep them in STATE_DIR/routes.lft; without it "
      "the tables are read from that file and the fabric is not touched")
      .group(balance);
  plugin::add_top_option(app, options.top,
                         "switches (worst first) in the long output, the rest in one line")
      .group(balance);
  plugin::add_range_option(app, "-w,--warning", options.thresholds.warning,
                           "WARNING when a switch's up-port spread (most minus fewest "
                           "destinations) alerts this range (default 1: a spread above 1)")
      .group(balance);
  plugin::add_range_option(app, "-c,--critical", options.thresholds.critical,
                           "CRITICAL when a switch's up-port spread alerts this range")
      .group(balance);
  poll::add_mad_options(app, options.source.mad, "MAD (--refresh)");
  poll::add_recording_options(app, options.source.fabric,
                              poll::ReplayTopology::refresh);  // a --refresh's MADs
}

plugin::Check run_balance_check(BalanceCheckOptions& options, const plugin::CommonOptions& common) {
  options.source.tables = options.refresh ? TableSource::fabric : TableSource::state_file;
  if (common.timeout > 0)
    options.source.deadline =
        std::chrono::steady_clock::now() + std::chrono::milliseconds(common.timeout * 900);
  const RoutesSource source = load_routes_source(options.source);
  const Fabric& fabric = source.topology.fabric;
  const routes::RouteMap map(fabric, source.tables);
  const RouteNames names(map, source.name_map());
  const levels::FabricLevels levels(fabric, make_graph(fabric));
  plugin::Check check =
      balance_check(names, routes::up_port_balance(map, levels), options.thresholds, options.top);
  for (const std::string& problem : source.problems)
    check.subchecks.push_back({plugin::State::warning, problem, {}, {}});
  return check;
}

plugin::Check balance_check(const RouteNames& names, const std::vector<routes::SwitchBalance>& rows,
                            const plugin::Thresholds& thresholds, std::size_t listed) {
  plugin::Check check;
  std::size_t alerting = 0;
  for (const routes::SwitchBalance& row : rows) {
    const plugin::State state = thresholds.evaluate(static_cast<double>(row.spread()));
    if (state == plugin::State::ok) continue;
    ++alerting;
    if (listed == 0 || check.subchecks.size() < listed)
      check.subchecks.push_back({state, describe(names, row), {}, {}});
  }
  // The rest in one line that carries their worst state (the rows are worst first, so the
  // first one left out is).
  if (listed && alerting > listed) {
    std::size_t skipped = 0;
    std::optional<plugin::State> worst_left;
    for (const routes::SwitchBalance& row : rows) {
      const plugin::State state = thresholds.evaluate(static_cast<double>(row.spread()));
      if (state == plugin::State::ok) continue;
      if (++skipped <= listed) continue;
      if (!worst_left) worst_left = state;
    }
    check.subchecks.push_back(
        {worst_left,
         "and " + std::to_string(alerting - listed) + " more switches (--top 0 lists them all)",
         {},
         {}});
  }
  const std::size_t worst = rows.empty() ? 0 : rows.front().spread();
  if (rows.empty())
    check.summary = "no switch with two or more up-ports in the forwarding tables";
  else if (alerting == 0)
    check.summary = "up-ports balanced on " + std::to_string(rows.size()) +
                    " switches, worst spread " + std::to_string(worst) + " destinations (" +
                    names.node(rows.front().node) + ")";
  else
    check.summary = std::to_string(alerting) + " of " + std::to_string(rows.size()) +
                    " switches spread destinations unevenly over their up-ports, worst " +
                    std::to_string(worst) + " (" + names.node(rows.front().node) + ")";
  check.perfdata.push_back({"worst_spread", static_cast<double>(worst), "", thresholds.warning,
                            thresholds.critical, 0.0, std::nullopt});
  check.perfdata.push_back({"unbalanced_switches", static_cast<double>(alerting), "", std::nullopt,
                            std::nullopt, 0.0, static_cast<double>(rows.size())});
  check.perfdata.push_back({"switches", static_cast<double>(rows.size()), "", std::nullopt,
                            std::nullopt, 0.0, std::nullopt});
  return check;
}

}  // namespace ibpm::route_check
