// SPDX-License-Identifier: MIT
// ibpm-web: the dashboard as a static site for cron. Works from any web server or file://.
//   ibpm-web --cache fabric.ibnetdiscover --state-dir /var/lib/ibpm -o /var/www/ibpm
#include <chrono>
#include <iostream>

#include "analysis/analyzer_options.hpp"
#include "plugin/cli.hpp"
#include "plugin/options.hpp"
#include "site_data.hpp"
#include "site_writer.hpp"

namespace {

using namespace ibpm;

struct Options {
  plugin::FabricOptions fabric;
  web::SiteOptions site;
  web::WriteOptions write;
  std::string graphs = "all";
  bool no_history = false;
  bool verbose = false;
};

void run(Options& options) {
  const auto t0 = std::chrono::steady_clock::now();
  options.site.state_dir = options.fabric.state_dir;
  options.site.read_history = !options.no_history;
  options.write.graphs.scope = options.graphs == "all"       ? web::GraphScope::all
                               : options.graphs == "busiest" ? web::GraphScope::busiest
                                                             : web::GraphScope::none;
  options.write.graphs.busiest = options.write.busiest;
  options.write.draw_limit = std::chrono::seconds(options.site.history.timeout);
  const web::SiteData data = web::collect_site_data(options.fabric, options.site);
  // Always: a store that failed is news to whoever reads cron's mail (the overview says it too).
  for (const std::string& w : data.warnings) std::cerr << "warning: " << w << "\n";
  const web::WriteReport report = web::write_site(data, options.write);
  if (options.verbose) {
    const double took =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::cout << "wrote " << options.write.output << ": " << report.pages << " pages, "
              << report.graphs << " graphs";
    if (report.failed_graphs > 0)
      std::cout << " (" << report.failed_graphs << " could not be drawn)";
    std::cout << " in " << took << " s\n";
  }
  // The site is written and says why it has no history; the exit status tells cron.
  if (const std::string failure = analysis::history_failure(data); !failure.empty())
    throw std::runtime_error(failure);
}

}  // namespace

int main(int argc, char** argv) {
  Options options;
  return plugin::run_tool(
      argc, argv,
      {.name = "ibpm-web",
       .description =
           "Writes the fabric's dashboard as a static web site: the last sweep's summary, the "
           "health map, the worst ports, the busiest cables, traffic locality per subtree, "
           "utilization profiles, and a page per node and per cable. The output folder is "
           "replaced whole, so readers never see half a site.",
       .add_options =
           [&](CLI::App& app) {
             analysis::add_analyzer_options(app, options.fabric, options.site.history);
             plugin::add_output_option(app, options.write.output,
                                       "The site's folder (replaced whole)")
                 .required();
             plugin::add_baseline_option(
                 app, options.site.baseline,
                 "Topology file to compare with (check_ib_topology --write-baseline)");
             ibpm::plugin::add_jobs_option(
                 app, options.site.jobs,
                 "each cable page names the jobs routed through it (needs STATE_DIR/routes.lft)");
             plugin::add_option(app, "--busiest", options.write.busiest,
                                "Rows of the busiest cables table")
                 .in_range(1UL, 10000UL)
                 .show_default();
             plugin::add_option(app, "--graphs", options.graphs,
                                "Which cables get a utilization profile: all, busiest (as many as "
                                "--busiest) or none")
                 .one_of({"all", "busiest", "none"})
                 .show_default();
             plugin::add_graph_format_option(app, options.write.graphs.format, {"png", "svg"},
                                             "Graph images: png or svg");
             plugin::add_fold_option(
                 app, options.write.fold,
                 "The map's folding, as ibpm-map --fold (pods: the drill-down maps in maps/)");
             plugin::add_no_history_flag(app, options.no_history,
                                         "The topology alone (no RRD files read)");
             plugin::add_verbose_flag(app, options.verbose,
                                      "Say what was written and how long it took");
           },
       .run = [&] { run(options); }});
}
