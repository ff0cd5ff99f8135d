// SPDX-License-Identifier: MIT
// ibpm-map: the fabric's health map for cron. Switches by level (core on top), links coloured by
// utilization over the last --window seconds of RRD history, line width by capacity, errors and
// degraded links marked, subtree roots coloured by traffic locality, nodes bordered by health;
// tooltips and URLs for a dashboard. Large fabrics fold each switch's hosts into one node, and
// the largest fold by pods: an overview of pods and switch groups, with a map of each one click
// down (in map-maps/ next to map.svg) and of each leaf's hosts two clicks down. The maps are
// drawn by ibpm-draw (Graphviz), started from this command's folder (or $IBPM_DRAW).
//   ibpm-map --cache fabric.ibnetdiscover --state-dir /var/lib/ibpm -o /var/www/ibpm/map.svg
#include <chrono>
#include <iostream>

#include "analysis/analyzer_options.hpp"
#include "analysis/collect.hpp"
#include "plugin/cli.hpp"
#include "plugin/options.hpp"
#include "viz/draw_process.hpp"
#include "viz/map_format.hpp"
#include "viz/map_graph.hpp"
#include "viz/map_set.hpp"

namespace {

using namespace ibpm;

struct Options {
  plugin::FabricOptions fabric;
  std::string output;
  history::HistoryOptions history;
  std::string baseline;
  std::string fold = "auto";
  std::size_t fold_above = 300;
  std::string url_prefix;
  std::string maps_dir;
  bool no_links = false;
  bool no_history = false;
  bool verbose = false;
};

void run(const Options& options) {
  const auto format = viz::format_for_path(options.output);
  if (!format)
    throw std::runtime_error("cannot tell the format of " + options.output +
                             ": name it .svg, .png, .pdf or .dot");
  const auto t0 = std::chrono::steady_clock::now();
  analysis::CollectOptions collect_options;
  collect_options.history = options.history;
  collect_options.read_history = !options.no_history;
  collect_options.annotate = true;
  collect_options.baseline = options.baseline;
  const analysis::FabricAnalysis data = analysis::collect(options.fabric, collect_options);
  if (options.verbose && !options.no_history && !data.reader)
    std::cerr << "ibpm-map: no state directory " << options.fabric.state_dir
              << ": no counter history\n";
  // Always: a store that failed is news to whoever reads cron's mail (the legend says it too).
  for (const std::string& w : data.warnings) std::cerr << "warning: " << w << "\n";
  const Fabric& fabric = data.fabric();

  viz::MapSetOptions map_options;
  map_options.map.fold = *viz::parse_fold_mode(options.fold);
  map_options.map.fold_above = options.fold_above;
  map_options.map.urls = !options.no_links;
  map_options.map.url_prefix = options.url_prefix;
  map_options.map.names = data.name_map();
  map_options.maps_dir = options.maps_dir;
  // ibpm-draw, beside this command, draws every map of the set, within -t of the first.
  viz::DrawProcess draw(viz::draw_program(), std::chrono::seconds(options.history.timeout));
  const viz::WrittenMaps written = viz::write_map_set(fabric, *data.levels, data.annotations,
                                                      map_options, *format, options.output, draw);
  if (options.verbose) {
    const double took =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::cout << "wrote " << options.output << ": " << written.overview_nodes << " nodes, "
              << written.overview_edges << " edges, fold " << viz::to_string(written.fold);
    if (written.drill_down_maps > 0)
      std::cout << ", " << written.drill_down_maps << " drill-down maps in " << written.maps_dir;
    std::cout << " in " << took << " s\n";
  }
  // The map is drawn and says why it has no history; the exit status tells cron.
  if (const std::string failure = analysis::history_failure(data); !failure.empty())
    throw std::runtime_error(failure);
}

}  // namespace

int main(int argc, char** argv) {
  Options options;
  return plugin::run_tool(
      argc, argv,
      {.name = "ibpm-map",
       .description =
           "Draws the InfiniBand fabric as a health map (Graphviz): switches by level, links "
           "coloured by utilization over the counter history, errors and degraded links "
           "marked, subtrees coloured by traffic locality, with tooltips and URLs.",
       .add_options =
           [&](CLI::App& app) {
             analysis::add_analyzer_options(app, options.fabric, options.history);
             plugin::add_output_option(
                 app, options.output,
                 "Map file; the format follows the extension: .svg .png .pdf .dot")
                 .required();
             plugin::add_baseline_option(
                 app, options.baseline,
                 "Topology file (check_ib_topology --write-baseline): cables running below it "
                 "are drawn as degraded");
             plugin::add_fold_option(
                 app, options.fold,
                 "none: every device and cable. hosts: one node per switch for its hosts, one "
                 "edge per pair of nodes. pods: an overview where each pod (the spines sharing "
                 "one set of hosts, with the leaves below them), director chassis, group of "
                 "switches wired to the same neighbours (core groups) and leaf outside a pod is "
                 "one node carrying the worst health, faults inside, hottest cable, traffic and "
                 "locality of what it holds; each links to its own map (its switches), whose "
                 "leaves link to their hosts' map. auto: none up to --fold-above nodes, hosts "
                 "while that map has at most 400 nodes and edges, else pods");
             plugin::add_option(app, "--fold-above", options.fold_above,
                                "Node count above which auto folds")
                 .show_default();
             plugin::add_option(
                 app, "--url-prefix", options.url_prefix,
                 "Prefix of the URLs: PREFIX nodes/0xGUID.html, PREFIX links/0xGUID-PORT.html");
             plugin::add_option(
                 app, "--maps-dir", options.maps_dir,
                 "Folder name of the drill-down maps (--fold pods), made next to the output and "
                 "named in its links (a name, not a path); replaced whole at each run (default: "
                 "the output's name with -maps, e.g. map-maps)");
             plugin::add_flag(app, "--no-links", options.no_links, "No URLs in the map");
             plugin::add_no_history_flag(app, options.no_history,
                                         "Draw the topology alone (no RRD files read)");
             plugin::add_verbose_flag(app, options.verbose,
                                      "Say what was written and how long it took");
           },
       .run = [&] { run(options); }});
}
