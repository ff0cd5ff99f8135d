// SPDX-License-Identifier: MIT
// ibpm-routes: what the switches' forwarding tables say about traffic. The tables are read over
// the fabric with --refresh (all switches in parallel) and kept in STATE_DIR/routes.lft; every
// other run reads that file and the topology, and never the fabric.
//   --cable NODE[PORT]   the host pairs, sources and destinations (by leaf) and jobs crossing it
//   --cables             every cable direction with the host pairs it carries, most first
//   --path SRC DST       the route hop by hop, as ibtracert prints it
//   --balance            destinations per up-port of every switch, worst spread first
// --balance --check, the Nagios check of the spread, is check_ib_routes now; the old spelling runs
// the same check for one more release and says so on stderr.
#include <algorithm>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include "balance_report.hpp"
#include "cable_load_report.hpp"
#include "cable_report.hpp"
#include "fabric/graph.hpp"
#include "jobs/jobs_file.hpp"
#include "plugin/cli.hpp"
#include "plugin/options.hpp"
#include "route_check/balance_check.hpp"
#include "route_check/routes_source.hpp"
#include "route_path_report.hpp"
#include "route_targets.hpp"

namespace {

using namespace ibpm;
using namespace ibpm::tools;
using route_check::RouteNames;
using route_check::RoutesSource;
using route_check::RoutesSourceOptions;
using route_check::TableSource;

struct Options {
  RoutesSourceOptions source;
  bool refresh = false;
  std::string cable;
  bool cables = false;
  bool host_cables = false;
  std::vector<std::string> path;
  bool balance = false;
  std::string jobs;
  bool list_pairs = false;
  ReportFormat format = ReportFormat::table;
  std::size_t top = 20;
  unsigned timeout = 60;
};

void add_options(CLI::App& app, Options& options) {
  plugin::add_fabric_options(app, options.source.fabric);
  const std::string what = "What to show";
  plugin::add_refresh_routes_flag(
      app, options.refresh,
      "Read every switch's forwarding table over the fabric (and, without --cache, "
      "discover the topology again) and keep them in STATE_DIR/routes.lft")
      .group(what);
  plugin::add_option(app, "--cable", options.cable,
                     "The host pairs, hosts and jobs whose traffic crosses the cable at NODE[PORT] "
                     "(NODE: name, GUID or LID), in each direction")
      .type_name("NODE[PORT]")
      .group(what);
  plugin::add_flag(app, "--cables", options.cables,
                   "Every cable direction between switches with the number of host pairs routed "
                   "through it, the most first (--top N)")
      .group(what);
  plugin::add_flag(app, "--host-cables", options.host_cables,
                   "With --cables: host cables too (each carries all of its host's pairs)")
      .group(what);
  plugin::add_option(app, "--path", options.path, "The route from host SRC to host DST, hop by hop")
      .expected(2)
      .type_name("SRC DST")
      .group(what);
  plugin::add_flag(app, "--balance", options.balance,
                   "Destinations per up-port of every switch, the worst spread first")
      .group(what);
  ibpm::plugin::add_jobs_option(app, options.jobs,
                                "--cable names the jobs whose own traffic crosses the cable")
      .group(what);
  plugin::add_flag(app, "--pairs", options.list_pairs, "With --cable: list every host pair")
      .group(what);
  plugin::add_top_option(app, options.top,
                         "switches (worst first) with --balance, directions (most loaded first) "
                         "with --cables")
      .group(what);
  plugin::add_format_option(app, options.format);
  plugin::add_timeout_option(app, options.timeout, "Seconds the MADs of --refresh may take")
      .in_range(1u, 86400u);
  poll::add_mad_options(app, options.source.mad, "MAD (--refresh)");
  poll::add_recording_options(app, options.source.fabric,
                              poll::ReplayTopology::refresh);  // a --refresh's MADs
}

void require_one_action(const Options& options) {
  const int actions =
      !options.cable.empty() + options.cables + !options.path.empty() + options.balance;
  if (actions > 1)
    throw std::invalid_argument("--cable, --cables, --path and --balance go one at a time");
  if (actions == 0 && !options.refresh)
    throw std::invalid_argument(
        "nothing to do: give --refresh, --cable, --cables, --path or --balance");
  if ((!options.jobs.empty() || options.list_pairs) && options.cable.empty())
    throw std::invalid_argument("--jobs and --pairs go with --cable");
  if (options.host_cables && !options.cables)
    throw std::invalid_argument("--host-cables goes with --cables");
}

RoutesSource load(Options& options) {
  options.source.tables = options.refresh ? TableSource::fabric : TableSource::state_file;
  return load_routes_source(options.source);
}

void run_report(Options& options) {
  require_one_action(options);
  options.source.deadline =
      std::chrono::steady_clock::now() + std::chrono::seconds(options.timeout);
  const RoutesSource source = load(options);
  for (const std::string& problem : source.problems)
    std::cerr << "ibpm-routes: " << problem << '\n';
  const bool only_refresh =
      options.cable.empty() && !options.cables && options.path.empty() && !options.balance;
  if (options.refresh)
    (only_refresh ? std::cout : std::cerr)
        << "read the forwarding tables of " << source.switches_read << " switches ("
        << source.lft_queries << " MADs) in " << source.read_seconds << " s into "
        << source.tables_path << '\n';
  if (only_refresh) return;

  const Fabric& fabric = source.topology.fabric;
  const routes::RouteMap map(fabric, source.tables);
  const RouteNames names(map, source.name_map());
  const ReportFormat format = options.format;

  if (!options.path.empty()) {
    const PortRef from = endpoint_port(
        map, resolve_node_port(fabric, source.name_map(), options.path[0]), options.path[0]);
    const NodePort to_spec = resolve_node_port(fabric, source.name_map(), options.path[1]);
    PortRef to;
    if (to_spec.node->type == NodeType::sw)
      to = {to_spec.node->guid, 0};
    else
      to = endpoint_port(map, to_spec, options.path[1]);
    const auto dlid = fabric.find_port(to)->lid;
    if (!dlid) throw std::invalid_argument("'" + options.path[1] + "' has no LID");
    print_route(std::cout, map, names, from, to, map.trace(from, *dlid), format);
  } else if (!options.cable.empty()) {
    const PortRef port = cable_port(
        fabric, resolve_node_port(fabric, source.name_map(), options.cable), options.cable);
    std::vector<routes::JobEndpoints> jobs;
    if (!options.jobs.empty()) jobs = read_job_endpoints(map, source.name_map(), options.jobs);
    print_cable_impact(std::cout, names, cable_impact(map, port, jobs), format,
                       options.list_pairs ? PairListing::every_pair : PairListing::counts);
  } else if (options.cables) {
    print_cable_loads(std::cout, map, names, format, options.top,
                      options.host_cables ? HostCables::listed : HostCables::left_out);
  } else {
    const levels::FabricLevels levels(fabric, make_graph(fabric));
    print_balance(std::cout, names, levels, routes::up_port_balance(map, levels), format,
                  options.top);
  }
}

bool wants_check(int argc, char** argv) {
  return std::any_of(argv + 1, argv + argc,
                     [](const char* a) { return std::string(a) == "--check"; });
}

const char* const kDescription =
    "What the switches' linear forwarding tables say about traffic: the hosts and jobs whose "
    "traffic crosses a cable, the route between two hosts as ibtracert prints it, and how evenly "
    "each switch spreads destinations over its up-ports. --refresh reads the tables over the "
    "fabric into STATE_DIR/routes.lft; every other run reads them from there. The Nagios check "
    "of the up-port balance is check_ib_routes.";

}  // namespace

int main(int argc, char** argv) {
  if (wants_check(argc, argv)) {
    std::cerr << "ibpm-routes: --balance --check is deprecated and goes in the next release: run "
                 "check_ib_routes (the same options, without --balance --check)\n";
    route_check::BalanceCheckOptions check_options;
    bool balance = false, check = false;
    return plugin::run_plugin(argc, argv,
                              {.name = "ibpm-routes",
                               .prefix = "IB ROUTES",
                               .description = "Deprecated: check_ib_routes is this check.",
                               .add_options =
                                   [&](CLI::App& app) {
                                     route_check::add_balance_check_options(app, check_options);
                                     plugin::add_flag(app, "--balance", balance,
                                                      "The up-port balance, the only check");
                                     plugin::add_flag(app, "--check", check, "A Nagios check");
                                   },
                               .body =
                                   [&](const plugin::CommonOptions& common) {
                                     if (!balance)
                                       throw std::invalid_argument("--check goes with --balance");
                                     return route_check::run_balance_check(check_options, common);
                                   },
                               .summary = "",
                               .icinga2_host_defaults = {}});
  }
  Options options;
  return plugin::run_tool(argc, argv,
                          {.name = "ibpm-routes",
                           .description = kDescription,
                           .add_options = [&](CLI::App& app) { add_options(app, options); },
                           .run = [&] { run_report(options); }});
}
