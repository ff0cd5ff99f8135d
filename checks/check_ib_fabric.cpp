// SPDX-License-Identifier: MIT
// check_ib_fabric: every cabled port of the fabric (or of this collector's shard) polled in one
// parallel run; every port's RRD written; the same thresholds as check_ib_port. The status line
// counts ports polled, in error, saturated and unreachable; the long output names the worst
// ports by both cable ends; perfdata gives fabric totals and the sweep's timing. State changes
// go to syslog as events; samples can be appended to a CSV file. With the switches' forwarding
// tables in the state directory (ibpm-routes --refresh), the worst ports say whom they hurt,
// and a port waiting over its xmit_wait threshold names the root of its congestion tree.
#include <malloc.h>

#include <algorithm>
#include <chrono>
#include <future>

#include "locality/sweep_aggregates.hpp"
#include "poll/port_poller.hpp"
#include "poll/state_lines.hpp"
#include "products/sweep_outputs.hpp"
#include "sweep/congestion_roots.hpp"
#include "sweep/route_impact.hpp"
#include "sweep/sweep_report.hpp"

namespace {

using ibpm::plugin::Check;
using ibpm::plugin::State;

// What is left of -t for handing results to a monitoring system after the sweep: up to the last
// part of the reserve the sweep leaves for its output (poll::poll_settings).
std::optional<std::chrono::steady_clock::time_point> submit_deadline(
    const ibpm::plugin::CommonOptions& common, std::chrono::steady_clock::time_point began) {
  if (common.timeout == 0) return std::nullopt;
  const std::int64_t total_ms = static_cast<std::int64_t>(common.timeout) * 1000;
  const std::int64_t reserve_ms =
      std::max(total_ms / 10, std::min<std::int64_t>(1000, total_ms / 4));
  return began + std::chrono::milliseconds(total_ms - reserve_ms / 4);
}

Check run(const ibpm::sweep::SweepOptions& options, ibpm::products::OutputOptions outputs,
          ibpm::sweep::SweepReportSettings settings, const ibpm::plugin::CommonOptions& common) {
  outputs.submit_deadline = submit_deadline(common, std::chrono::steady_clock::now());
  outputs.verbosity = common.verbosity;
  ibpm::sweep::SweepResult sweep = ibpm::sweep::run_sweep(options, common);
  // The scope's per-subtree sums beside the ports' history (ibpm-locality reads them).
  if (std::string note = ibpm::locality::write_sweep_aggregates(
          options, sweep,
          outputs.submit_deadline.value_or(std::chrono::steady_clock::now() +
                                           std::chrono::seconds(30)));
      !note.empty())
    sweep.state_notes.push_back(std::move(note));
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
  for (std::string& problem : ibpm::sweep::add_congestion_roots(options, sweep, verdicts))
    sweep.state_notes.push_back(std::move(problem));
  const auto events = ibpm::products::port_events(sweep, verdicts);
  // The record is written while the report and the outputs are made: neither reads it, and on
  // two processors that is 0.03 s of the sweep's tail at 23,328 ports.
  std::future<std::optional<std::string>> record_saved = std::async(std::launch::async, [&sweep] {
    return ibpm::poll::save_record(sweep.pending, sweep.results);
  });
  Check check = ibpm::sweep::sweep_check(options, sweep, verdicts, settings, common.verbosity);
  ibpm::products::OutputLines written =
      ibpm::products::write_outputs(options, outputs, sweep, verdicts, events);
  ibpm::poll::add_state_lines(check, {}, record_saved.get());  // the notes are in sweep_check's
  for (const std::string& joined : sweep.joined)
    check.subchecks.push_back(
        {State::ok, "joined, added to the saved topology: " + joined, {}, {}});
  for (const std::string& changed : sweep.refreshed)
    check.subchecks.push_back(
        {State::ok, "node changed, the saved topology updated: " + changed, {}, {}});
  // Passive results not delivered are said, never the fabric's state (the ports' state stands).
  for (ibpm::plugin::Subcheck& line : written.deliveries)
    check.subchecks.push_back(std::move(line));
  for (ibpm::plugin::Perfdata& item : written.perfdata) check.perfdata.push_back(std::move(item));
  // An output the operator asked for that could not be written makes the run UNKNOWN at least.
  for (ibpm::plugin::Subcheck& line : written.lines) {
    check.state = ibpm::plugin::worst(*check.state, effective_state(line));
    check.subchecks.push_back(std::move(line));
  }
  return check;
}

}  // namespace

int main(int argc, char** argv) {
  // Blocks from 128 kB up always mapped on their own and given back when freed. glibc otherwise
  // raises that threshold to the largest block freed so far (the topology's), so that the sweep's
  // results, per port, then come from a heap that never shrinks: 2 MB more at 23,328 ports.
  ::mallopt(M_MMAP_THRESHOLD, 128 * 1024);
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
           "check_ib_port uses), and each subtree's traffic summed over them in "
           "STATE_DIR/aggregates/SCOPE/ (what ibpm-locality reads), "
           "and checks error rates, utilization, XmitWait, link state, "
           "width and speed against the same thresholds. The status line counts ports polled, "
           "in error, saturated and unreachable; the long output names the worst ports by both "
           "cable ends; perfdata gives fabric totals and the sweep's duration. Port state "
           "changes are logged as events (syslog); --csv appends every sample to a file.",
       .add_options =
           [&](CLI::App& app) {
             ibpm::plugin::add_fabric_options(app, options.fabric);
             ibpm::sweep::add_sweep_options(app, options);
             ibpm::sweep::add_repoll_option(app, options);
             ibpm::products::add_output_options(app, outputs);
             const std::string report = "Report";
             ibpm::plugin::add_option(app, "--worst", settings.worst,
                                      "Ports and unreachable nodes listed in the long output")
                 .show_default()
                 .group(report);
             ibpm::plugin::add_summary_ports_option(app, settings.summary_ports).group(report);
             ibpm::plugin::add_state_option(
                 app, "--unreachable", settings.unreachable,
                 {State::ok, State::warning, State::critical, State::unknown},
                 "State of a port whose node does not answer: ok, warning, critical or unknown")
                 .group(report);
             ibpm::poll::add_poll_options(app, options);
           },
       .body =
           [&](const ibpm::plugin::CommonOptions& common) {
             return run(options, outputs, settings, common);
           },
       .summary = "Every cabled port of the InfiniBand fabric, or of this collector's shard, in "
                  "one sweep.",
       .icinga2_host_defaults = {}});
}
