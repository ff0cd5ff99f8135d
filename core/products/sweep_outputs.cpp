// SPDX-License-Identifier: MIT
// What a sweep leaves behind besides the RRD files, and the options that ask for it.

#include "products/sweep_outputs.hpp"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <limits>
#include <optional>

#include "base/atomic_file.hpp"
#include "base/number.hpp"
#include "layout/state_layout.hpp"
#include "plugin/add_option.hpp"
#include "plugin/options.hpp"
#include "poll/port_report.hpp"
#include "products/event_log.hpp"
#include "products/event_options.hpp"
#include "products/icinga2_api.hpp"
#include "products/icinga2_options.hpp"
#include "products/openmetrics.hpp"
#include "products/openmetrics_merge.hpp"
#include "products/port_events.hpp"
#include "products/sample_csv.hpp"
#include "products/store_events.hpp"
#include "products/sweep_summary.hpp"
#include "products/switch_results.hpp"
#include "state/directories.hpp"

namespace ibpm::products {

namespace {

using plugin::State;
using plugin::Subcheck;
using sweep::PortVerdict;
using sweep::SweepOptions;
using sweep::SweepResult;

EventLogOptions event_log_options(const OutputOptions& outputs) {
  EventLogOptions log_options;
  if (outputs.syslog) log_options.syslog_facility = parse_syslog_facility(outputs.syslog_facility);
  log_options.file = outputs.events_file;
  return log_options;
}

void log_events(const OutputOptions& outputs, const std::vector<PortEvent>& events) {
  if (events.empty()) return;
  const EventLog log(event_log_options(outputs));
  log.write(events);
}

// The store's failure, or its return, as one event (not one per port), remembered beside the
// sweep's sample record. Returns the line that says it was logged, if it was.
std::optional<Subcheck> log_store_event(const SweepOptions& options, const OutputOptions& outputs,
                                        const SweepResult& sweep) {
  const std::string memory =
      layout::StateLayout(options.fabric.state_dir).store_failure(sweep::sweep_scope(options));
  const std::optional<StoreEvent> event = store_change(memory, sweep.store, sweep.started);
  if (!event) return std::nullopt;
  const EventLog log(event_log_options(outputs));
  log.write_message(event->state, event->message);
  return Subcheck{State::ok,
                  event->state == State::ok ? "the store's return logged as an event"
                                            : "the store's failure logged as an event",
                  {},
                  {}};
}

// One passive-result target's line, and how many results it did not deliver (unset: not known,
// the results could not be made).
struct Delivery {
  Subcheck line;
  std::optional<std::size_t> undelivered;
};

SwitchResults results_of(const SweepOptions& options, const OutputOptions& outputs,
                         const SweepResult& sweep) {
  return switch_results(options, sweep,
                        {.fabric_host = outputs.nagios_fabric_host, .cas = outputs.nagios_cas});
}

Delivery not_made(const std::string& target, const std::exception& e) {
  return {{State::unknown, "switch results not delivered to " + target + ": " + e.what(), {}, {}},
          std::nullopt};
}

Delivery not_delivered(const std::string& count, std::size_t undelivered, const std::string& target,
                       const std::string& why) {
  return {
      {State::unknown, count + " switch results not delivered to " + target + ": " + why, {}, {}},
      undelivered};
}

Delivery delivered(std::size_t count, const std::string& verb, const SwitchResults& results) {
  std::string line = std::to_string(count) + " switch results " + verb;
  if (results.elsewhere)
    line += " (" + std::to_string(results.elsewhere) +
            " switches split across shards: their results from the shard that reads most of "
            "their ports)";
  return {{State::ok, line, {}, {}}, 0};
}

// Every switch's result into Nagios's check result spool, in one file.
Delivery hand_to_nagios(const SweepOptions& options, const OutputOptions& outputs,
                        const SweepResult& sweep) {
  SwitchResults results;
  try {
    results = results_of(options, outputs, sweep);
  } catch (const std::exception& e) {
    return not_made("Nagios", e);
  }
  try {
    write_checkresult_file(outputs.nagios_spool, results.results, sweep.started,
                           sweep.started + sweep.duration);
  } catch (const std::exception& e) {
    const std::size_t count = results.results.size();
    return not_delivered(std::to_string(count), count, "Nagios", e.what());
  }
  return delivered(results.results.size(), "handed to Nagios", results);
}

// Every switch's result to Icinga 2's API.
Delivery submit_icinga2_results(const SweepOptions& options, const OutputOptions& outputs,
                                const SweepResult& sweep) {
  SwitchResults results;
  try {
    results = results_of(options, outputs, sweep);
  } catch (const std::exception& e) {
    return not_made("Icinga 2", e);
  }
  const auto latest = std::chrono::steady_clock::now() + std::chrono::minutes(1);
  const Icinga2Submission sent =
      submit_to_icinga2({.url = outputs.icinga2_api,
                         .ca_file = outputs.icinga2_ca,
                         .user = outputs.icinga2_user,
                         .password_file = outputs.icinga2_password_file,
                         .cert_file = outputs.icinga2_cert,
                         .key_file = outputs.icinga2_key,
                         .check_source = {}},
                        results.results, sweep.started, sweep.started + sweep.duration,
                        std::min(outputs.submit_deadline.value_or(latest), latest));
  if (sent.not_delivered > 0) {
    const std::string count = sent.delivered ? std::to_string(sent.not_delivered) + " of " +
                                                   std::to_string(results.results.size())
                                             : std::to_string(sent.not_delivered);
    return not_delivered(count, sent.not_delivered, "Icinga 2", sent.reason);
  }
  return delivered(sent.delivered, "submitted to Icinga 2", results);
}

// Every passive-result target asked for: its line, and the results not delivered in all.
void deliver_results(const SweepOptions& options, const OutputOptions& outputs,
                     const SweepResult& sweep, OutputLines& out) {
  std::vector<Delivery> deliveries;
  if (!outputs.nagios_spool.empty()) deliveries.push_back(hand_to_nagios(options, outputs, sweep));
  if (!outputs.icinga2_api.empty())
    deliveries.push_back(submit_icinga2_results(options, outputs, sweep));
  if (deliveries.empty()) return;
  std::optional<std::size_t> undelivered = 0;
  for (Delivery& d : deliveries) {
    undelivered =
        undelivered && d.undelivered ? std::optional(*undelivered + *d.undelivered) : std::nullopt;
    out.deliveries.push_back(std::move(d.line));
  }
  plugin::Perfdata figure;
  figure.label = "undelivered_results";
  figure.value =
      undelivered ? static_cast<double>(*undelivered) : std::numeric_limits<double>::quiet_NaN();
  figure.min = 0;
  out.perfdata.push_back(std::move(figure));
}

// An error message when `list` is not a counter list, empty when it is.
std::string counter_list_error(const std::string& list) {
  try {
    parse_counter_list(list);
    return std::string();
  } catch (const std::invalid_argument& e) {
    return std::string(e.what());
  }
}

// --csv, --openmetrics, --openmetrics-series and --openmetrics-counters: the samples written to
// files.
void add_sample_file_options(CLI::App& app, OutputOptions& options, const std::string& group) {
  plugin::add_option(app, "--csv", options.csv,
                     "Append every sample (one row per port: raw counters and rates) to FILE")
      .type_name("FILE")
      .group(group);
  plugin::add_option(app, "--openmetrics", options.openmetrics,
                     "After each sweep, replace FILE with the ports' counters (_total), link "
                     "state, the sweep's judgements (state, BER, XmitWait share, flapping, "
                     "degraded link, congestion root or victim) and its own figures in the "
                     "Prometheus text format (for node_exporter's textfile collector: FILE ends "
                     "in .prom, in its folder); a re-poll (--node) replaces only the series of "
                     "the ports it read")
      .type_name("FILE")
      .group(group);
  plugin::add_option(app, "--openmetrics-series", options.openmetrics_series,
                     "The series --openmetrics gives per port: default (at most 23: 13 counters "
                     "and the judgements) or all (at most 31: every counter, link width and "
                     "lane speed, rcv_errors BER)")
      .one_of({"default", "all"})
      .show_default()
      .type_name("SET")
      .group(group);
  plugin::add_option(app, "--openmetrics-counters", options.openmetrics_counters,
                     "The counters --openmetrics exports as _total instead of the series "
                     "setting's (perfdata names, comma-separated, or all)")
      .check(counter_list_error)
      .type_name("LIST")
      .group(group);
}

// --nagios-spool and the names of the hosts the switch results go to.
void add_nagios_spool_options(CLI::App& app, OutputOptions& options, const std::string& group) {
  plugin::add_option(app, "--nagios-spool", options.nagios_spool,
                     "After each sweep, hand every switch's result (what check_ib_node would say "
                     "of its ports) to its passive ib-node service: one file in DIR, Nagios 4's "
                     "check_result_path (see ibpm-nagios-config --node-services passive)")
      .type_name("DIR")
      .group(group);
  plugin::add_option(app, "--nagios-fabric-host", options.nagios_fabric_host,
                     "The fabric host's name, as given to ibpm-nagios-config --fabric-host (switch "
                     "hosts are named as the generator names them)")
      .show_default()
      .group(group);
  plugin::add_flag(app, "--nagios-cas", options.nagios_cas,
                   "The configuration was generated with --cas (host CAs have hosts too, which "
                   "can change how switch hosts are named)")
      .group(group);
}

}  // namespace

void add_output_options(CLI::App& app, OutputOptions& options) {
  const std::string group = "Outputs";
  plugin::add_jobs_option(app, options.jobs,
                          "the long output names the jobs whose hosts route through a cable in "
                          "trouble (needs STATE_DIR/routes.lft, see ibpm-routes --refresh)")
      .group(group);
  add_event_options(app, options.syslog, options.syslog_facility, options.events_file,
                    "port state changes", group);
  add_sample_file_options(app, options, group);
  add_nagios_spool_options(app, options, group);
  add_icinga2_options(app,
                      {options.icinga2_api, options.icinga2_ca, options.icinga2_user,
                       options.icinga2_password_file, options.icinga2_cert, options.icinga2_key},
                      Icinga2OptionsFor::submitting, "Icinga 2 passive results");
  plugin::add_flag(app, "--histograms", options.histograms,
                   "Histograms of the rates across the swept ports in the long output")
      .group(group);
}

std::vector<PortEvent> port_events(SweepResult& sweep, const std::vector<PortVerdict>& verdicts) {
  std::vector<PortEvent> events;
  for (std::size_t i = 0; i < verdicts.size(); ++i) {
    const PortVerdict& v = verdicts[i];
    poll::PortResult& result = sweep.results[i];
    // A port the run never got to ask says nothing new: what is remembered stays.
    if (result.sample.cut) continue;
    std::optional<State> remembered;
    if (result.reported && *result.reported <= static_cast<std::uint8_t>(State::unknown))
      remembered = static_cast<State>(*result.reported);
    const PortStatus status{result.target->node,
                            result.target->port,
                            v.state,
                            result.sample.answered && result.rates.baseline && !result.carried,
                            v.cable(),
                            v.reason()};
    if (auto event = state_change(status, remembered)) {
      // An OK port's verdict names no cable (nothing shows it); its event does.
      if (event->status.cable.empty()) event->status.cable = poll::cable_name(*result.target);
      events.push_back(std::move(*event));
    }
    if (remembered) result.reported = static_cast<std::uint8_t>(*remembered);
  }
  return events;
}

OutputLines write_outputs(const SweepOptions& options, const OutputOptions& outputs,
                          const SweepResult& sweep, const std::vector<PortVerdict>& verdicts,
                          const std::vector<PortEvent>& events) {
  OutputLines out;
  std::vector<Subcheck>& lines = out.lines;
  auto failed = [&](const std::string& what, const std::exception& e) {
    lines.push_back({State::unknown, what + ": " + e.what(), {}, {}});
  };
  try {
    log_events(outputs, events);
    if (!events.empty())
      lines.push_back({State::ok,
                       std::to_string(events.size()) + " port state changes logged as events",
                       {},
                       {}});
  } catch (const std::exception& e) {
    failed("events", e);
  }
  try {
    // Nodes --join added to the saved topology, and nodes a re-poll found changed: said once,
    // here (the next runs find them so in the topology).
    if (!sweep.joined.empty() || !sweep.refreshed.empty()) {
      const EventLog log(event_log_options(outputs));
      for (const std::string& joined : sweep.joined)
        log.write_message(State::ok, "joined the fabric, added to the saved topology: " + joined);
      for (const std::string& changed : sweep.refreshed)
        log.write_message(State::ok, "node changed, the saved topology updated: " + changed);
    }
  } catch (const std::exception& e) {
    failed("join events", e);
  }
  try {
    if (std::optional<Subcheck> logged = log_store_event(options, outputs, sweep))
      lines.push_back(std::move(*logged));
  } catch (const std::exception& e) {
    failed("store event", e);
  }
  if (!outputs.csv.empty()) {
    try {
      append_samples_csv(outputs.csv, sweep.started, sweep.results, sweep::shard_label(options));
    } catch (const std::exception& e) {
      failed("CSV", e);
    }
  }
  // A re-poll of a few nodes replaces the series of the ports it read in the sweep's file, and
  // leaves the others' and the sweep's own figures as they are (openmetrics_merge.hpp).
  if (!outputs.openmetrics.empty()) {
    try {
      const sweep::SweepCounts counts = sweep::count_ports(verdicts);
      SweepFigures figures;
      figures.scope = sweep::sweep_scope(options);
      figures.started = sweep.started;
      figures.duration = sweep.duration;
      figures.mads_sent = sweep.mad_stats.sent;
      figures.mad_retries = sweep.mad_stats.retries;
      figures.ports = sweep.results.size();
      figures.ports_read = counts.polled;
      figures.ports_unreachable = counts.unreachable;
      figures.store_checked = sweep.store_checked;
      OpenMetricsSettings settings;
      settings.all = outputs.openmetrics_series == "all";
      if (!outputs.openmetrics_counters.empty())
        settings.counters = parse_counter_list(outputs.openmetrics_counters);
      settings.ber = options.ber;
      const auto start = std::chrono::steady_clock::now();
      if (sweep::is_repoll(options))
        merge_openmetrics_file(
            outputs.openmetrics,
            openmetrics_text(verdicts, sweep.topology.fabric, figures, settings));
      else
        write_openmetrics(outputs.openmetrics, verdicts, sweep.topology.fabric, figures, settings);
      if (outputs.verbosity > 0) {
        const std::chrono::duration<double> took = std::chrono::steady_clock::now() - start;
        lines.push_back({State::ok,
                         "OpenMetrics file: " +
                             std::to_string(std::filesystem::file_size(outputs.openmetrics)) +
                             " bytes written in " + base::format_fixed(took.count(), 3) + " s",
                         {},
                         {}});
      }
    } catch (const std::exception& e) {
      failed("OpenMetrics file", e);
    }
  }
  deliver_results(options, outputs, sweep, out);
  const std::vector<Histogram> histograms = rate_histograms(sweep.results);
  if (!sweep::is_repoll(options)) {
    try {
      const std::string path = summary_path(options);
      // 0755 before the umask, as every state folder (not 0777: group-writable under umask 002).
      state::make_directories(std::filesystem::path(path).parent_path().string());
      const std::string json = summary_json(options, sweep, verdicts, histograms);
      base::replace_file_with(path, [&](std::ostream& out) { out << json; });
    } catch (const std::exception& e) {
      failed("sweep summary", e);
    }
  }
  if (outputs.histograms) {
    // One line of the long output per line of the text (each output line is a single line).
    const std::string text = format_histograms(histograms, true);
    std::size_t from = 0;
    while (from < text.size()) {
      const std::size_t end = std::min(text.find('\n', from), text.size());
      if (end > from) lines.push_back({State::ok, text.substr(from, end - from), {}, {}});
      from = end + 1;
    }
  }
  return out;
}

}  // namespace ibpm::products
