// SPDX-License-Identifier: MIT
// ibpm-congestion: the congestion trees of a window of the RRD history: the ports that waited
// for credits (XmitWait), the root each waits for (the full port at the tip, found by following
// the forwarding tables in STATE_DIR/routes.lft downstream), and with --jobs the jobs that cause
// each tree and those that only suffer it.
#include <iostream>
#include <stdexcept>

#include "analysis/analyzer_options.hpp"
#include "analysis/collect.hpp"
#include "analysis/congestion_report.hpp"
#include "plugin/cli.hpp"
#include "plugin/options.hpp"
#include "plugin/report_format.hpp"
#include "routes/job_routes.hpp"
#include "routes/lft_file.hpp"

namespace {

struct Options {
  ibpm::plugin::FabricOptions fabric;
  ibpm::history::HistoryOptions history;
  ibpm::plugin::ReportFormat format = ibpm::plugin::ReportFormat::table;
  ibpm::analysis::CongestionThresholds thresholds;
  std::string jobs;
  std::optional<double> xmit_wait_tick_ns;
};

ibpm::routes::ForwardingTables read_tables(const std::string& state_dir) {
  const std::string path = ibpm::routes::lft_file_path(state_dir);
  try {
    return ibpm::routes::read_lft_file(path);
  } catch (const std::exception& e) {
    throw std::runtime_error(std::string(e.what()) + " (ibpm-routes --refresh writes " + path +
                             ")");
  }
}

void run(const Options& options) {
  ibpm::analysis::CollectOptions collect_options;
  collect_options.history = options.history;
  collect_options.history_needs_state_dir = false;
  collect_options.peaks = false;  // averages are all the analysis reads
  collect_options.xmit_wait_tick_ns = options.xmit_wait_tick_ns;
  collect_options.subtrees = false;
  collect_options.rows = true;  // waiting and fullness judged in the same rows
  const ibpm::analysis::FabricAnalysis data =
      ibpm::analysis::collect(options.fabric, collect_options);
  const ibpm::routes::ForwardingTables tables = read_tables(options.fabric.state_dir);
  const ibpm::routes::RouteMap map(data.fabric(), tables);
  std::map<ibpm::PortRef, std::vector<std::string>> job_ports;
  if (!options.jobs.empty())
    job_ports = ibpm::routes::job_directions(
        map, ibpm::routes::read_job_endpoints(map, data.name_map(), options.jobs));
  for (const auto& warning : data.warnings) std::cerr << "warning: " << warning << "\n";

  const ibpm::analysis::EgressLoads loads = ibpm::analysis::egress_loads(data.usage);
  const ibpm::analysis::CongestionContext context{data.fabric(),
                                                  data.name_map(),
                                                  data.window.start,
                                                  data.window.end,
                                                  ibpm::history::describe_coverage(data.coverage),
                                                  options.thresholds,
                                                  !options.jobs.empty()};
  if (!ibpm::analysis::has_xmit_wait(loads)) {
    // No history at all because the store failed is not "no XmitWait history": said as such,
    // and the exit status tells cron.
    const std::string failure = ibpm::analysis::history_failure(data);
    const std::string note = failure.empty() ? ibpm::analysis::kNoXmitWaitHistory : failure;
    ibpm::plugin::print_report(
        options.format,
        {.table = [&] { std::cout << note << '\n'; },
         .csv = [&] { std::cerr << note << '\n'; },
         .json = [&] { ibpm::analysis::print_congestion_json(std::cout, {}, context, note); }});
    if (!failure.empty()) throw std::runtime_error(failure);
    return;
  }
  const ibpm::analysis::CongestionReport report =
      ibpm::analysis::find_congestion(map, loads, options.thresholds, &job_ports);
  ibpm::plugin::print_report(
      options.format,
      {.table = [&] { ibpm::analysis::print_congestion_table(std::cout, report, context); },
       .csv = [&] { ibpm::analysis::print_congestion_csv(std::cout, report, context); },
       .json = [&] { ibpm::analysis::print_congestion_json(std::cout, report, context); }});
}

}  // namespace

int main(int argc, char** argv) {
  Options options;
  return ibpm::plugin::run_tool(
      argc, argv,
      {.name = "ibpm-congestion",
       .description =
           "Congestion trees of an InfiniBand fabric from the counter history in the state "
           "directory: the ports that waited for credits (XmitWait share of a row of the "
           "history above --wait-threshold, or a 32-bit PortXmitWait at its maximum), the root "
           "each waits for (found by following the forwarding tables in STATE_DIR/routes.lft "
           "downstream to a port full in the same row, utilization at --busy-threshold or more, "
           "that does not wait itself), and with --jobs the jobs whose routes cross each root "
           "(they cause it) and those that cross only its victims (they suffer it). Judged row by "
           "row, so the window need not match the congestion. A victim whose routes reach two "
           "roots is in both trees.",
       .add_options =
           [&](CLI::App& app) {
             ibpm::analysis::add_analyzer_options(app, options.fabric, options.history,
                                                  options.format);
             ibpm::plugin::add_option(
                 app, "--wait-threshold", options.thresholds.wait,
                 "A port waits in a row of the history when its XmitWait share of the row is "
                 "above this (0..1)")
                 .in_range(0.0, 1.0)
                 .show_default();
             ibpm::plugin::add_option(app, "--busy-threshold", options.thresholds.busy,
                                      "A port is full in a row at this utilization or more "
                                      "(0..1)")
                 .in_range(0.0, 1.0)
                 .show_default();
             ibpm::plugin::add_jobs_option(app, options.jobs,
                                           "per root, the jobs whose routes cross it (cause) "
                                           "and those crossing only its victims (suffer)");
             ibpm::plugin::add_xmit_wait_tick_option(app, options.xmit_wait_tick_ns);
           },
       .run = [&] { run(options); }});
}
