// SPDX-License-Identifier: MIT
// ibpm-rates: the operator's console view: current rates of the ports of one or more nodes, of
// a node type, or of the whole fabric, read now and compared with the last stored sample (or
// with a sample taken --interval seconds before). --clear-counters clears the error counters
// of those ports after reading them, recorded in their state as check_ib_port --reset-counters
// does.
#include <chrono>
#include <iostream>
#include <thread>

#include "plugin/cli.hpp"
#include "plugin/options.hpp"
#include "plugin/report_format.hpp"
#include "poll/port_poller.hpp"
#include "rates_table.hpp"
#include "sweep/sweep_report.hpp"

namespace {

struct Options {
  ibpm::sweep::SweepOptions sweep;
  unsigned timeout = 60;
  double interval = 0;
  ibpm::plugin::ReportFormat format = ibpm::plugin::ReportFormat::table;
  std::string sort = "fabric";
  std::size_t top = 0;
};

ibpm::tools::RatesSort parse_sort(const std::string& text) {
  if (text == "errors") return ibpm::tools::RatesSort::errors;
  if (text == "traffic") return ibpm::tools::RatesSort::traffic;
  return ibpm::tools::RatesSort::fabric;
}

void run(const Options& options) {
  ibpm::plugin::CommonOptions common;
  common.timeout = options.timeout;
  if (options.interval > 0) {
    // A fresh first sample, so the rates cover exactly the interval (counters untouched).
    ibpm::sweep::SweepOptions first = options.sweep;
    first.clear_counters = false;
    ibpm::sweep::SweepResult baseline = ibpm::sweep::run_sweep(first, common);
    ibpm::poll::save_record(baseline.pending, baseline.results);
    std::this_thread::sleep_for(std::chrono::duration<double>(options.interval));
  }
  ibpm::sweep::SweepResult sweep = ibpm::sweep::run_sweep(options.sweep, common);
  ibpm::sweep::SweepReportSettings settings;
  settings.port.thresholds = &sweep.thresholds;
  const auto verdicts = ibpm::sweep::judge_ports(sweep, settings);
  ibpm::poll::save_record(sweep.pending, sweep.results);
  const auto ports = ibpm::tools::ordered_ports(verdicts, parse_sort(options.sort), options.top);
  const auto table = [&] {
    ibpm::tools::print_rates_table(std::cout, ports);
    std::size_t cleared = 0;
    for (const auto& r : sweep.results) cleared += r.cleared != 0;
    if (options.sweep.clear_counters)
      std::cout << "cleared the error counters of " << cleared
                << " ports (recorded in their state)\n";
  };
  // --format takes no csv here.
  ibpm::plugin::print_report(options.format, {.table = table, .csv = nullptr, .json = [&] {
                                                ibpm::tools::print_rates_json(std::cout, ports);
                                              }});
}

}  // namespace

int main(int argc, char** argv) {
  Options options;
  return ibpm::plugin::run_tool(
      argc, argv,
      {.name = "ibpm-rates",
       .description =
           "Prints the current rates of InfiniBand ports: of the nodes given with --node, "
           "of a node type, or of the whole fabric. Rates are against the last sample in "
           "the state directory (the checks' RRD files), or against a sample taken "
           "--interval seconds earlier; each run stores its sample there too.",
       .add_options =
           [&](CLI::App& app) {
             ibpm::plugin::add_fabric_options(app, options.sweep.fabric);
             ibpm::plugin::add_option(app, "-n,--node", options.sweep.nodes,
                                      "Only this node (GUID, LID or name); repeat for more")
                 .type_name("NODE");
             ibpm::sweep::add_sweep_options(app, options.sweep);
             ibpm::plugin::add_option(
                 app, "--interval", options.interval,
                 "Take a first sample, wait this many seconds, and report the rates over them")
                 .in_range(0.0, 3600.0)
                 .type_name("SECONDS");
             ibpm::plugin::add_flag(
                 app, "--clear-counters", options.sweep.clear_counters,
                 "After reading, clear the error counters (and 32-bit data counters) of these "
                 "ports; recorded in their state");
             ibpm::plugin::add_format_option(
                 app, options.format,
                 {ibpm::plugin::ReportFormat::table, ibpm::plugin::ReportFormat::json});
             ibpm::plugin::add_sort_option(app, options.sort, {"fabric", "errors", "traffic"},
                                           "fabric (topology order), errors or traffic");
             ibpm::plugin::add_top_option(app, options.top, "ports after sorting");
             ibpm::plugin::add_timeout_option(app, options.timeout, "Seconds a run may take");
             ibpm::poll::add_poll_options(app, options.sweep);
           },
       .run = [&] { run(options); }});
}
