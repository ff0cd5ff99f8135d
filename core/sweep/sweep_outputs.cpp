#include "sweep/sweep_outputs.hpp"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <chrono>
#include <filesystem>

#include "base/json.hpp"
#include "products/event_log.hpp"
#include "products/port_events.hpp"
#include "products/sample_csv.hpp"
#include "base/atomic_file.hpp"

namespace ibpm::sweep {

namespace {

using base::json_number;
using base::json_string;
using plugin::State;
using plugin::Subcheck;

std::string optional_number(const std::optional<double>& value) {
  return value ? json_number(*value) : "null";
}

void log_events(const OutputOptions& outputs, const std::vector<products::PortEvent>& events) {
  if (events.empty()) return;
  products::EventLogOptions log_options;
  if (outputs.syslog) log_options.syslog_facility = products::parse_syslog_facility(outputs.syslog_facility);
  log_options.file = outputs.events_file;
  const products::EventLog log(log_options);
  log.write(events);
}

std::string port_json(const PortVerdict& v) {
  const poll::PortTarget& t = v.result->target;
  return "{\"node_guid\":" + json_string(format_guid(t.node)) + ",\"port\":" + std::to_string(t.port) +
         ",\"lid\":" + std::to_string(t.lid) + ",\"name\":" + json_string(t.name) +
         ",\"remote\":" + json_string(t.remote_name) + ",\"state\":" +
         json_string(plugin::to_string(v.state)) + ",\"reason\":" + json_string(v.reason) + "}";
}

}  // namespace

void add_output_options(CLI::App& app, OutputOptions& options) {
  const std::string group = "Outputs";
  app.add_option("--jobs", options.jobs,
                 "Jobs file (JOBID HOSTLIST lines, as squeue -h -o \"%A %N\" prints them): the "
                 "long output names the jobs whose hosts route through a cable in trouble "
                 "(needs STATE_DIR/routes.lft, see ibpm-routes --refresh)")
      ->type_name("FILE")
      ->group(group);
  app.add_flag("!--no-syslog", options.syslog, "Do not log port state changes to syslog")->group(group);
  app.add_option("--syslog-facility", options.syslog_facility,
                 "Facility of the events: daemon, user, local0..local7")
      ->check([](const std::string& name) {
        try {
          products::parse_syslog_facility(name);
          return std::string();
        } catch (const std::invalid_argument& e) {
          return std::string(e.what());
        }
      })
      ->capture_default_str()
      ->group(group);
  app.add_option("--events-file", options.events_file,
                 "Also append the events (port state changes) to FILE")
      ->type_name("FILE")
      ->group(group);
  app.add_option("--csv", options.csv,
                 "Append every sample (one row per port: raw counters and rates) to FILE")
      ->type_name("FILE")
      ->group(group);
  app.add_flag("--histograms", options.histograms,
               "Histograms of the rates across the swept ports in the long output")
      ->group(group);
}

std::string summary_path(const SweepOptions& options) {
  return (std::filesystem::path(options.fabric.state_dir) / "sweep" / (sweep_scope(options) + ".json"))
      .string();
}

std::string summary_json(const SweepOptions& options, const SweepResult& sweep,
                         const std::vector<PortVerdict>& verdicts,
                         const std::vector<products::Histogram>& histograms) {
  const SweepCounts counts = count_ports(verdicts);
  std::string json = "{\"started\":" + json_number(sweep.started) +
                     ",\"duration\":" + json_number(sweep.duration) +
                     ",\"poll_duration\":" + json_number(sweep.poll_duration) +
                     ",\"first_read\":" + optional_number(sweep.first_read) +
                     ",\"last_read\":" + optional_number(sweep.last_read) +
                     ",\"shard\":{\"index\":" + std::to_string(options.shard.index) +
                     ",\"count\":" + std::to_string(options.shard.count) + "}" +
                     ",\"topology\":" + json_string(sweep.topology.origin) +
                     ",\"fabric_ports\":" + std::to_string(sweep.fabric_ports) +
                     ",\"ports\":" + std::to_string(verdicts.size()) +
                     ",\"polled\":" + std::to_string(counts.polled) +
                     ",\"in_error\":" + std::to_string(counts.in_error) +
                     ",\"saturated\":" + std::to_string(counts.saturated) +
                     ",\"unreachable\":" + std::to_string(counts.unreachable) +
                     ",\"unreachable_nodes\":" + std::to_string(counts.unreachable_nodes.size()) +
                     ",\"baseline\":" + std::to_string(counts.baseline) +
                     ",\"mads\":" + std::to_string(sweep.mad_stats.sent) + ",\"totals\":{";
  bool first = true;
  for (const plugin::Perfdata& p : sweep_perfdata(sweep, verdicts, counts)) {
    json += (first ? "" : ",") + json_string(p.label) + ":" + json_number(p.value);
    first = false;
  }
  json += "},\"ports_not_ok\":[";
  first = true;
  for (const PortVerdict& v : verdicts) {
    if (v.state == State::ok) continue;
    json += (first ? "" : ",") + port_json(v);
    first = false;
  }
  json += "],\"histograms\":" + products::histograms_json(histograms) + "}\n";
  return json;
}

std::vector<products::PortEvent> port_events(SweepResult& sweep,
                                             const std::vector<PortVerdict>& verdicts) {
  std::vector<products::PortEvent> events;
  for (std::size_t i = 0; i < verdicts.size(); ++i) {
    const PortVerdict& v = verdicts[i];
    poll::PortResult& result = sweep.results[i];
    // A port the run never got to ask says nothing new: what is remembered stays.
    if (result.sample.cut) continue;
    std::optional<State> remembered;
    if (result.reported && *result.reported <= static_cast<std::uint8_t>(State::unknown))
      remembered = static_cast<State>(*result.reported);
    const products::PortStatus status{result.target.node, result.target.port, v.state,
                                      result.sample.answered && result.rates.baseline, v.cable,
                                      v.reason};
    if (auto event = products::state_change(status, remembered)) events.push_back(std::move(*event));
    if (remembered) result.reported = static_cast<std::uint8_t>(*remembered);
  }
  return events;
}

std::vector<Subcheck> write_outputs(const SweepOptions& options, const OutputOptions& outputs,
                                    const SweepResult& sweep, const std::vector<PortVerdict>& verdicts,
                                    const std::vector<products::PortEvent>& events) {
  std::vector<Subcheck> lines;
  auto failed = [&](const std::string& what, const std::exception& e) {
    lines.push_back({State::unknown, what + ": " + e.what(), {}, {}});
  };
  try {
    log_events(outputs, events);
    if (!events.empty())
      lines.push_back({State::ok, std::to_string(events.size()) +
                                      " port state changes logged as events", {}, {}});
  } catch (const std::exception& e) {
    failed("events", e);
  }
  if (!outputs.csv.empty()) {
    try {
      products::append_samples_csv(outputs.csv, sweep.started, sweep.results, shard_label(options));
    } catch (const std::exception& e) {
      failed("CSV", e);
    }
  }
  const std::vector<products::Histogram> histograms = products::rate_histograms(sweep.results);
  try {
    const std::string path = summary_path(options);
    std::filesystem::create_directories(std::filesystem::path(path).parent_path());
    const std::string json = summary_json(options, sweep, verdicts, histograms);
    base::replace_file_with(path, [&](std::ostream& out) { out << json; });
  } catch (const std::exception& e) {
    failed("sweep summary", e);
  }
  if (outputs.histograms) {
    // One line of the long output per line of the text (each output line is a single line).
    const std::string text = products::format_histograms(histograms, true);
    std::size_t from = 0;
    while (from < text.size()) {
      const std::size_t end = std::min(text.find('\n', from), text.size());
      if (end > from) lines.push_back({State::ok, text.substr(from, end - from), {}, {}});
      from = end + 1;
    }
  }
  return lines;
}

}  // namespace ibpm::sweep
