// SPDX-License-Identifier: MIT
// check_ib_node: every cabled port of a node (a switch, typically) in one run, one line per port
// in the long output, the worst state wins and the summary names the worst ports by both ends.

#include "poll/node_report.hpp"
#include "poll/port_check.hpp"
#include "poll/state_lines.hpp"

namespace {

using ibpm::plugin::Check;
using ibpm::plugin::State;

Check run(const ibpm::poll::PortCheckOptions& options, std::size_t shown,
          const ibpm::plugin::CommonOptions& common) {
  const ibpm::poll::NodePoll poll = ibpm::poll::poll_node(options, common, false);
  const ibpm::poll::NodeReportSettings settings{
      ibpm::poll::report_settings(options, poll.thresholds), shown};
  std::vector<const ibpm::poll::PortResult*> results;
  for (const ibpm::poll::PortResult& result : poll.results) results.push_back(&result);
  // Whom the ports in trouble hurt (the subchecks still in poll.results order).
  std::string routes_problem;
  const ibpm::NodeNameMap* names = poll.names ? &*poll.names : nullptr;
  Check check = ibpm::poll::node_report(ibpm::display_name(*poll.node, names), results, settings,
                                        [&](std::vector<ibpm::plugin::Subcheck*>& port_checks) {
                                          routes_problem = ibpm::poll::add_route_impact(
                                              options, poll, port_checks);
                                        });
  if (!routes_problem.empty()) check.subchecks.push_back({State::ok, routes_problem, {}, {}});
  if (poll.rediscovered)
    check.subchecks.push_back({State::ok, "topology was stale: discovered again", {}, {}});
  ibpm::poll::add_state_lines(check, poll.notes, poll.record_failure);
  ibpm::poll::add_store_lines(check, poll.store, poll.central_store);
  if (common.verbosity > 0)
    check.subchecks.push_back({State::ok, ibpm::poll::describe(poll.mad_stats), {}, {}});
  return check;
}

}  // namespace

int main(int argc, char** argv) {
  ibpm::poll::PortCheckOptions options;
  std::size_t shown = 3;
  return ibpm::plugin::run_plugin(
      argc, argv,
      {.name = "check_ib_node",
       .prefix = "IB NODE",
       .description =
           "Reads the counters of every cabled port of an InfiniBand node (a switch, typically) "
           "in one parallel run and checks each port as check_ib_port does: error rates, "
           "utilization and XmitWait against thresholds, link state, width and speed. One line "
           "per port in the long output; the worst state wins and the summary names the worst "
           "ports with both cable ends. Perfdata labels are prefixed with the port (p3_...).",
       .add_options =
           [&](CLI::App& app) {
             ibpm::poll::add_port_check_options(app, options, false);
             ibpm::plugin::add_summary_ports_option(app, shown);
           },
       .body =
           [&](const ibpm::plugin::CommonOptions& common) { return run(options, shown, common); },
       .summary =
           "Every cabled port of an InfiniBand node (a switch, typically) in one parallel run.",
       .icinga2_host_defaults = {{"node", "$ib_guid$"}}});
}
