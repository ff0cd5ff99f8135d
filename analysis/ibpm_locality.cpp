// SPDX-License-Identifier: MIT
// ibpm-locality: traffic locality per subtree (and per operator-defined node set) over a window
// of the RRD history the checks keep: how much of what a subtree's hosts send stays inside it.
#include <iostream>
#include <optional>

#include "analysis/analyzer_options.hpp"
#include "analysis/collect.hpp"
#include "base/atomic_file.hpp"
#include "locality/locality_report.hpp"
#include "locality/slurm_topology.hpp"
#include "plugin/cli.hpp"
#include "plugin/options.hpp"
#include "plugin/report_format.hpp"

namespace {

struct Options {
  ibpm::plugin::FabricOptions fabric;
  ibpm::history::HistoryOptions history;
  ibpm::plugin::ReportFormat format = ibpm::plugin::ReportFormat::table;
  std::string sort = "level";
  std::optional<int> level;
  std::size_t top = 0;
  std::vector<std::string> set_files;
  std::string jobs;
  std::string slurm_in;
  std::string slurm_out;
  bool no_subtrees = false;
  bool per_port = false;
};

void run(const Options& options) {
  ibpm::analysis::CollectOptions collect_options;
  collect_options.history = options.history;
  collect_options.history_needs_state_dir = false;
  // Locality needs averages only.
  collect_options.peaks = false;
  collect_options.subtrees = !options.no_subtrees;
  collect_options.set_files = options.set_files;
  collect_options.slurm_topology = options.slurm_in;
  collect_options.job_sets = options.jobs;
  collect_options.level = options.level;
  collect_options.aggregates = !options.per_port;
  const ibpm::analysis::FabricAnalysis data =
      ibpm::analysis::collect(options.fabric, collect_options);

  if (!options.slurm_out.empty()) {
    std::vector<std::string> warnings;
    ibpm::base::replace_file_with(options.slurm_out, [&](std::ostream& out) {
      warnings =
          ibpm::locality::write_slurm_topology(out, data.fabric(), *data.levels, data.name_map());
    });
    for (const auto& warning : warnings) std::cerr << "warning: " << warning << "\n";
  }
  for (const auto& warning : data.warnings) std::cerr << "warning: " << warning << "\n";

  const ibpm::history::Window& window = data.window;
  auto rows = ibpm::locality::sorted(data.traffic, ibpm::locality::parse_sort_order(options.sort));
  if (options.top && rows.size() > options.top) rows.resize(options.top);

  const std::string failure = ibpm::analysis::history_failure(data);
  ibpm::locality::ReportContext context{window.start, window.end,
                                        ibpm::history::describe_coverage(data.coverage),
                                        !failure.empty(), data.history_source};
  ibpm::plugin::print_report(
      options.format, {.table = [&] { ibpm::locality::print_table(std::cout, rows, context); },
                       .csv = [&] { ibpm::locality::print_csv(std::cout, rows); },
                       .json = [&] { ibpm::locality::print_json(std::cout, rows, context); }});
  // The report says it too; the exit status tells cron.
  if (!failure.empty()) throw std::runtime_error(failure);
}

}  // namespace

int main(int argc, char** argv) {
  Options options;
  return ibpm::plugin::run_tool(
      argc, argv,
      {.name = "ibpm-locality",
       .description =
           "Traffic locality per subtree of an InfiniBand fabric, from the counter history "
           "in the state directory: gen/con are the data the set's hosts send/receive, "
           "out/in the data crossing its border, l_gen = 1 - out/gen, l_con = 1 - in/con, "
           "l = 1 - (out + in)/(gen + con).",
       .add_options =
           [&](CLI::App& app) {
             ibpm::analysis::add_analyzer_options(app, options.fabric, options.history,
                                                  options.format);
             ibpm::plugin::add_sort_option(
                 app, options.sort, {"level", "locality", "traffic", "name"},
                 "level (top down), locality (least local first), traffic (busiest first) or name");
             ibpm::plugin::add_option(app, "--level", options.level,
                                      "Only subtrees rooted at this level (1 = leaves)");
             ibpm::plugin::add_top_option(app, options.top, "sets after sorting");
             ibpm::plugin::add_jobs_option(
                 app, options.jobs,
                 "each job's hosts are a set, with its traffic and locality over the window");
             ibpm::plugin::add_option(
                 app, "--sets", options.set_files,
                 "File of operator-defined node sets: 'NAME: HOSTLIST|GUID ...' per line")
                 .existing_file();
             ibpm::plugin::add_option(app, "--slurm-topology", options.slurm_in,
                                      "Slurm topology.conf: each SwitchName is a node set")
                 .existing_file();
             ibpm::plugin::add_option(
                 app, "--write-slurm-topology", options.slurm_out,
                 "Write a Slurm topology.conf of this fabric (leaves, spines, cores)");
             ibpm::plugin::add_flag(app, "--no-subtrees", options.no_subtrees,
                                    "Only the sets from --sets / --slurm-topology");
             ibpm::plugin::add_flag(
                 app, "--per-port", options.per_port,
                 "Read every port's history, not the per-subtree sums the sweeps write (used "
                 "when only subtrees are asked and they cover the window; the table's 'Read "
                 "from' line and the JSON's window.source say which)");
           },
       .run = [&] { run(options); }});
}
