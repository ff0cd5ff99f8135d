// SPDX-License-Identifier: MIT
// What a sweep leaves behind besides the RRD files:
//   - events: a line per port whose state changed since the last sweep, to syslog (and/or a
//     file), naming both cable ends (the state last reported is kept in the sample record);
//   - --csv FILE: every sample appended (one row per port and sweep);
//   - STATE_DIR/sweep/<fabric|shard-K-of-N>.json: the last sweep's summary (sweep_summary.hpp),
//     replaced atomically;
//   - --histograms: the rate histograms in the long output;
//   - --openmetrics FILE: the ports' counters and the sweep's judgements for Prometheus
//     (openmetrics.hpp), replaced whole;
//   - --nagios-spool DIR: every switch's result for its passive ib-node service, in one file of
//     Nagios's check result spool (switch_results.hpp, nagios_spool.hpp);
//   - --icinga2-api URL: every switch's result for its passive ib-node service, through Icinga 2's
//     REST API (icinga2_api.hpp).
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "plugin/cli_fwd.hpp"
#include "plugin/result.hpp"
#include "products/histogram.hpp"
#include "products/port_events.hpp"
#include "sweep/sweep.hpp"
#include "sweep/sweep_report.hpp"

namespace ibpm::products {

struct OutputOptions {
  bool syslog = true;  // --no-syslog turns events to syslog off
  std::string syslog_facility = "daemon";
  std::string events_file;  // also append events here
  std::string csv;          // append samples here
  bool histograms = false;  // print them in the long output
  std::string jobs;         // JOBID HOSTLIST lines: the jobs a port in trouble hurts
  std::string openmetrics;  // write the exposition format here
  std::string openmetrics_series = "default";  // or "all": every counter, width, lane speed
  std::string openmetrics_counters;            // the counters it exports, when not the series'
  int verbosity = 0;  // -v: the OpenMetrics file's size and the time it took in the long output

  std::string nagios_spool;                      // Nagios's check_result_path
  std::string nagios_fabric_host = "ib-fabric";  // as ibpm-nagios-config names hosts
  bool nagios_cas = false;
  std::string icinga2_api;            // https://HOST:PORT
  std::string icinga2_ca;             // the CA file the API's certificate is verified against
  std::string icinga2_user;           // ApiUser
  std::string icinga2_password_file;  // its password, in a file only its owner reads
  std::string icinga2_cert;           // or a client certificate
  std::string icinga2_key;            // and its key
  // When the submission to Icinga 2 gives up (the check's -t share); a minute at most.
  std::optional<std::chrono::steady_clock::time_point> submit_deadline;
};

void add_output_options(CLI::App& app, OutputOptions& options);

// The events of this sweep: each port's state (its verdict) against the state last reported
// (the sample record's), which becomes the verdict's (verdicts[i] is results[i]'s). Ports the
// sweep did not get to ask before its deadline keep what they had, and give no event.
std::vector<PortEvent> port_events(sweep::SweepResult& sweep,
                                   const std::vector<sweep::PortVerdict>& verdicts);

// What the outputs add to the sweep's result.
struct OutputLines {
  // Histograms, event counts, and an UNKNOWN line for an output that could not be written (a
  // file asked for and missing: the run is UNKNOWN at least; the sweep itself still counts).
  std::vector<plugin::Subcheck> lines;
  // One line per passive-result target (Nagios spool, Icinga 2 API): how many results went, or
  // how many did not and why (that line UNKNOWN). Never the sweep's state: a monitoring system
  // that is down must not hide the fabric's own result, and the next sweep delivers fresh ones.
  std::vector<plugin::Subcheck> deliveries;
  // undelivered_results, when a passive-result target is set (U when the count is not known).
  std::vector<plugin::Perfdata> perfdata;
};

OutputLines write_outputs(const sweep::SweepOptions& options, const OutputOptions& outputs,
                          const sweep::SweepResult& sweep,
                          const std::vector<sweep::PortVerdict>& verdicts,
                          const std::vector<PortEvent>& events);

}  // namespace ibpm::products
