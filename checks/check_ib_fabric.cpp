// SPDX-License-Identifier: MIT
// check_ib_fabric: every cabled port of the fabric (or of this collector's shard) polled in one
// parallel run; every port's RRD written; the same thresholds as check_ib_port. The status line
// counts ports polled, in error, saturated and unreachable; the long output names the worst
// ports by both cable ends; perfdata gives fabric totals and the sweep's timing. State changes
// go to syslog as events; samples can be appended to a CSV file. With the switches' forwarding
// tables in the state directory (ibpm-routes --refresh), the worst ports say whom they hurt.
#include <CLI/CLI.hpp>

#include "products/sweep_outputs.hpp"
#include "sweep/route_impact.hpp"
#include "sweep/sweep_report.hpp"

namespace {

using ibpm::plugin::Check;
using ibpm::plugin::State;

Check run(const ibpm::sweep::SweepOptions& options, const ibpm::products::OutputOptions& outputs,
          ibpm::sweep::SweepReportSettings settings, const ibpm::plugin::CommonOptions& common) {
  ibpm::sweep::SweepResult sweep = ibpm::sweep::run_sweep(options, common);
  settings.port.thresholds = &sweep.thresholds;
  settings.port.first_run = options.first_run;
  settings.port.ber = options.ber;
  settings.port.flap = options.flap;
  settings.port.flap_per_port = false;  // judged per cable, once for both ends
  std::vector<ibpm::sweep::PortVerdict> verdicts = ibpm::sweep::judge_ports(sweep, settings);
  // Whom the worst ports hurt, from the forwarding tables in the state directory (if any).
  for (std::string& problem :
       ibpm::sweep::add_route_impact(options, sweep, outputs.jobs, settings.worst, verdicts))
    sweep.state_notes.push_back(std::move(problem));
  const auto events = ibpm::products::port_events(sweep, verdicts);
  if (auto failure = ibpm::poll::save_record(sweep.pending, sweep.results))
    sweep.state_notes.push_back(*failure);
  Check check = ibpm::sweep::sweep_check(options, sweep, verdicts, settings, common.verbosity);
  // An output the operator asked for that could not be written makes the run UNKNOWN at least.
  for (ibpm::plugin::Subcheck& line :
       ibpm::products::write_outputs(options, outputs, sweep, verdicts, events)) {
    check.state = ibpm::plugin::worst(*check.state, effective_state(line));
    check.subchecks.push_back(std::move(line));
  }
  return check;
}

}  // namespace

int main(int argc, char** argv) {
  ibpm::sweep::SweepOptions options;
  ibpm::products::OutputOptions outputs;
  ibpm::sweep::SweepReportSettings settings;
  return ibpm::plugin::run_plugin(
      argc, argv,
      {.name = "check_ib_fabric",
       .prefix = "IB FABRIC",
       .description =
           "Polls every cabled port of an InfiniBand fabric (or, with --shard K/N, this "
           "collector's share of them) in one parallel run through a window of MAD queries, "
           "keeps each port's counters in STATE_DIR/<node GUID>/port<N>.rrd (the files "
           "check_ib_port uses) and checks error rates, utilization, XmitWait, link state, "
           "width and speed against the same thresholds. The status line counts ports polled, "
           "in error, saturated and unreachable; the long output names the worst ports by both "
           "cable ends; perfdata gives fabric totals and the sweep's duration. Port state "
           "changes are logged as events (syslog); --csv appends every sample to a file.",
       .add_options =
           [&](CLI::App& app) {
             ibpm::plugin::add_fabric_options(app, options.fabric);
             ibpm::sweep::add_sweep_options(app, options);
             ibpm::products::add_output_options(app, outputs);
             const std::string report = "Report";
             app.add_option("--worst", settings.worst,
                            "Ports and unreachable nodes listed in the long output")
                 ->capture_default_str()
                 ->group(report);
             app.add_option("--summary-ports", settings.summary_ports,
                            "Worst ports named in the status line")
                 ->capture_default_str()
                 ->group(report);
             ibpm::plugin::add_state_option(
                 app, "--unreachable", settings.unreachable,
                 {State::ok, State::warning, State::critical, State::unknown},
                 "State of a port whose node does not answer: ok, warning, critical or unknown")
                 ->group(report);
             ibpm::poll::add_poll_options(app, options);
           },
       .body =
           [&](const ibpm::plugin::CommonOptions& common) {
             return run(options, outputs, settings, common);
           }});
}
