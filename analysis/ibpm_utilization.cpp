// SPDX-License-Identifier: MIT
// ibpm-utilization: link utilization per cable and direction over a window of the RRD history
// (average and peak share of capacity, XmitWait %, errors), the busiest first, and utilization
// profiles drawn from the RRD files for the links it lists.
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <optional>
#include <set>

#include "analysis/analyzer_options.hpp"
#include "analysis/collect.hpp"
#include "analysis/utilization_report.hpp"
#include "base/atomic_file.hpp"
#include "graphs/utilization_graph.hpp"
#include "plugin/cli.hpp"
#include "plugin/options.hpp"
#include "plugin/report_format.hpp"
#include "state/directories.hpp"

namespace {

struct Options {
  ibpm::plugin::FabricOptions fabric;
  ibpm::history::HistoryOptions history;
  ibpm::plugin::ReportFormat format = ibpm::plugin::ReportFormat::table;
  std::string sort = "utilization";
  std::size_t top = 20;
  std::string graph_dir;
  std::string graph_format = "png";
  std::optional<double> xmit_wait_tick_ns;
};

// "link-0x0002c90300a1b2c3-7.png": named by the first end's GUID and port, never by a
// description, so the name is safe and stays the same when nodes are renamed.
std::string graph_file(const ibpm::history::LinkUsage& link, const std::string& format) {
  char name[64];
  std::snprintf(name, sizeof name, "link-0x%016llx-%u.",
                static_cast<unsigned long long>(link.a_to_b.from.node),
                unsigned{link.a_to_b.from.port});
  return name + format;
}

void run(const Options& options) {
  ibpm::analysis::CollectOptions collect_options;
  collect_options.history = options.history;
  collect_options.history_needs_state_dir = false;
  collect_options.xmit_wait_tick_ns = options.xmit_wait_tick_ns;
  collect_options.subtrees = false;
  const ibpm::analysis::FabricAnalysis data =
      ibpm::analysis::collect(options.fabric, collect_options);
  const ibpm::Fabric& fabric = data.fabric();
  const ibpm::NodeNameMap* name_map = data.name_map();
  const ibpm::history::HistoryReader& reader = *data.reader;
  const ibpm::history::Window& window = data.window;
  for (const auto& warning : data.warnings) std::cerr << "warning: " << warning << "\n";

  const std::string covered = ibpm::history::describe_coverage(data.coverage);
  const std::string failure = ibpm::analysis::history_failure(data);
  auto rows = ibpm::analysis::direction_rows(fabric, data.usage, name_map,
                                             ibpm::analysis::parse_utilization_sort(options.sort));
  if (options.top && rows.size() > options.top) rows.resize(options.top);

  ibpm::plugin::print_report(
      options.format, {.table =
                           [&] {
                             ibpm::analysis::print_utilization_table(
                                 std::cout, rows, window.seconds(), covered, !failure.empty());
                           },
                       .csv = [&] { ibpm::analysis::print_utilization_csv(std::cout, rows); },
                       .json =
                           [&] {
                             ibpm::analysis::print_utilization_json(std::cout, rows, window.start,
                                                                    window.end, covered);
                           }});

  // The report says it too; the exit status tells cron.
  if (!failure.empty()) throw std::runtime_error(failure);
  if (options.graph_dir.empty()) return;
  ibpm::state::make_directories(options.graph_dir);
  std::set<std::size_t> drawn;
  for (const auto& row : rows) {
    if (!drawn.insert(row.link->link).second) continue;
    const auto& link = fabric.links()[row.link->link];
    const std::string a = ibpm::port_name(fabric, link.a, name_map);
    const std::string b = ibpm::port_name(fabric, link.b, name_map);
    const std::string file = options.graph_dir + "/" + graph_file(*row.link, options.graph_format);
    // Drawn under a temporary name and renamed, so a web server never serves half a picture.
    ibpm::base::replace_file(file, [&](const std::string& part) {
      ibpm::graphs::draw_utilization(reader, *row.link, a, b,
                                     {part, a + " <-> " + b, window.start, window.end});
      return true;
    });
  }
}

}  // namespace

int main(int argc, char** argv) {
  Options options;
  return ibpm::plugin::run_tool(
      argc, argv,
      {.name = "ibpm-utilization",
       .description =
           "Link utilization of an InfiniBand fabric from the counter history in the state "
           "directory: per cable and direction, the average and peak share of the link's "
           "capacity, XmitWait % and error rates; optionally utilization profiles as graphs.",
       .add_options =
           [&](CLI::App& app) {
             ibpm::analysis::add_analyzer_options(app, options.fabric, options.history,
                                                  options.format);
             ibpm::plugin::add_sort_option(
                 app, options.sort, {"utilization", "peak", "wait", "errors", "fabric"},
                 "utilization (average), peak, wait (XmitWait %), errors, or fabric order");
             ibpm::plugin::add_top_option(app, options.top, "directions after sorting");
             ibpm::plugin::add_option(
                 app, "--graph-dir", options.graph_dir,
                 "Draw the utilization profile of every listed link into this folder");
             ibpm::plugin::add_graph_format_option(app, options.graph_format, {"png", "svg", "pdf"},
                                                   "png, svg or pdf");
             ibpm::plugin::add_xmit_wait_tick_option(app, options.xmit_wait_tick_ns);
           },
       .run = [&] { run(options); }});
}
