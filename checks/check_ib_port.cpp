// SPDX-License-Identifier: MIT
// check_ib_port: one port's counters as rates against thresholds, its link state, width and
// speed; state kept in the port's RRD file between runs.
#include "plugin/cli_fwd.hpp"
#include "poll/port_check.hpp"
#include "poll/state_lines.hpp"

namespace {

using ibpm::plugin::Check;

Check run(const ibpm::poll::PortCheckOptions& options, const ibpm::plugin::CommonOptions& common) {
  const ibpm::poll::NodePoll poll = ibpm::poll::poll_node(options, common, true);
  const ibpm::poll::PortResult& result = poll.results.front();
  ibpm::poll::ReportSettings settings = ibpm::poll::report_settings(options, poll.thresholds);
  settings.ber_coverage_notes = true;  // one port: every BER window says where it stands
  ibpm::plugin::Subcheck port = ibpm::poll::port_subcheck(result, settings);
  const std::string routes_problem = ibpm::poll::add_route_impact(options, poll, {&port});
  Check check;
  check.state = port.state;
  check.summary = port.output;
  check.subchecks = std::move(port.children);
  if (!routes_problem.empty())
    check.subchecks.push_back({ibpm::plugin::State::ok, routes_problem, {}, {}});
  if (poll.rediscovered)
    check.subchecks.push_back(
        {ibpm::plugin::State::ok, "topology was stale: discovered again", {}, {}});
  ibpm::poll::add_state_lines(check, poll.notes, poll.record_failure);
  if (common.verbosity > 0)
    check.subchecks.push_back(
        {ibpm::plugin::State::ok, ibpm::poll::describe(poll.mad_stats), {}, {}});
  check.perfdata = ibpm::poll::port_perfdata(result, poll.thresholds, "", options.ber);
  ibpm::poll::add_store_lines(check, poll.store, poll.central_store);
  return check;
}

}  // namespace

int main(int argc, char** argv) {
  ibpm::poll::PortCheckOptions options;
  return ibpm::plugin::run_plugin(
      argc, argv,
      {.name = "check_ib_port",
       .prefix = "IB PORT",
       .description =
           "Reads one InfiniBand port's counters (PortCounters, and the 64-bit "
           "PortCountersExtended where the agent has them; PortCountersExtended alone, every "
           "counter 64-bit, where the agent has its additional counters), computes their rates "
           "since the last run (kept in STATE_DIR/<node GUID>/port<N>.rrd), and compares error "
           "rates, link utilization and XmitWait with thresholds. A port that is not active is "
           "CRITICAL, a link below its expected width or speed WARNING. The first run only "
           "collects a baseline.",
       .add_options =
           [&](CLI::App& app) { ibpm::poll::add_port_check_options(app, options, true); },
       .body = [&](const ibpm::plugin::CommonOptions& common) { return run(options, common); },
       .summary = "Error rates, utilization, XmitWait, link state, width and speed of one "
                  "InfiniBand port.",
       .icinga2_host_defaults = {{"node", "$ib_guid$"}}});
}
