// ibpm-locality: traffic locality per subtree (and per operator-defined node set) over a window
// of the RRD history the checks keep: how much of what a subtree's hosts send stays inside it.
#include <CLI/CLI.hpp>

#include <iostream>
#include <optional>

#include "fabric/graph.hpp"
#include "fabric/node_name_map.hpp"
#include "history/link_usage.hpp"
#include "history/window_coverage.hpp"
#include "locality/locality_report.hpp"
#include "locality/node_set_file.hpp"
#include "locality/node_sets.hpp"
#include "locality/slurm_topology.hpp"
#include "plugin/options.hpp"
#include "plugin/cli.hpp"
#include "topology/topology_source.hpp"
#include "topology/atomic_file.hpp"

namespace {

struct Options {
  ibpm::plugin::FabricOptions fabric;
  ibpm::plugin::HistoryOptions history;
  std::string format = "table";
  std::string sort = "level";
  std::optional<int> level;
  std::size_t top = 0;
  std::vector<std::string> set_files;
  std::string jobs;
  std::string slurm_in;
  std::string slurm_out;
  bool no_subtrees = false;
};

void run(const Options& options) {
  ibpm::Topology topology =
      ibpm::TopologySource({.cache = options.fabric.cache, .state_dir = options.fabric.state_dir})
          .load(ibpm::TopologyRefresh::offline);
  const ibpm::Fabric& fabric = topology.fabric;
  const auto names = ibpm::NodeNameMap::load_if_named(options.fabric.node_name_map);
  const ibpm::NodeNameMap* name_map = names ? &*names : nullptr;
  ibpm::FabricLevels levels(fabric, ibpm::make_graph(fabric));

  if (!options.slurm_out.empty()) {
    std::vector<std::string> warnings;
    ibpm::replace_file_with(options.slurm_out, [&](std::ostream& out) {
      warnings = ibpm::locality::write_slurm_topology(out, fabric, levels, name_map);
    });
    for (const auto& warning : warnings) std::cerr << "warning: " << warning << "\n";
  }

  std::vector<ibpm::locality::NodeSet> sets;
  const ibpm::locality::DownSets down(fabric, levels);
  if (!options.no_subtrees) sets = ibpm::locality::subtree_sets(fabric, down, name_map);
  for (const auto& file : options.set_files)
    for (auto& set : ibpm::locality::load_node_set_file(file, fabric, down, name_map))
      sets.push_back(std::move(set));
  if (!options.slurm_in.empty())
    for (auto& set : ibpm::locality::load_slurm_topology(options.slurm_in, fabric, down, name_map))
      sets.push_back(std::move(set));
  if (!options.jobs.empty()) {
    std::vector<std::string> job_warnings;
    for (auto& set :
         ibpm::locality::load_job_sets(options.jobs, fabric, down, name_map, job_warnings))
      sets.push_back(std::move(set));
    for (const auto& warning : job_warnings) std::cerr << "warning: " << warning << "\n";
  }
  if (options.level) std::erase_if(sets, [&](const auto& s) { return s.level != *options.level; });

  ibpm::history::HistoryReader reader(options.fabric.state_dir, options.history.rrdcached);
  auto window = ibpm::history::window_ending_now(options.history.window);
  // Locality needs averages only.
  ibpm::history::WindowCoverage coverage(window);
  auto usage = ibpm::history::link_usage(
      fabric,
      [&](ibpm::PortRef port) {
        auto read = reader.read(port.node, port.port, window, false);
        coverage.add(read);
        return read;
      },
      {std::nullopt, false});
  auto rows = ibpm::locality::sorted(
      ibpm::locality::set_traffic(fabric, down, sets, usage, name_map),
      ibpm::locality::parse_sort_order(options.sort));
  if (options.top && rows.size() > options.top) rows.resize(options.top);

  ibpm::locality::ReportContext context{window.start, window.end,
                                       ibpm::history::describe_coverage(coverage)};
  if (options.format == "json")
    ibpm::locality::print_json(std::cout, rows, context);
  else if (options.format == "csv")
    ibpm::locality::print_csv(std::cout, rows);
  else
    ibpm::locality::print_table(std::cout, rows, context);
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Traffic locality per subtree of an InfiniBand fabric, from the counter history "
               "in the state directory: gen/con are the data the set's hosts send/receive, "
               "out/in the data crossing its border, l_gen = 1 - out/gen, l_con = 1 - in/con, "
               "l = 1 - (out + in)/(gen + con).",
               "ibpm-locality"};
  Options options;
  ibpm::plugin::add_fabric_options(app, options.fabric);
  ibpm::plugin::add_history_options(app, options.history);
  app.add_option("--format", options.format, "table, csv or json")
      ->check(CLI::IsMember({"table", "csv", "json"}))
      ->capture_default_str();
  app.add_option("--sort", options.sort,
                 "level (top down), locality (least local first), traffic (busiest first) or name")
      ->check(CLI::IsMember({"level", "locality", "traffic", "name"}))
      ->capture_default_str();
  app.add_option("--level", options.level, "Only subtrees rooted at this level (1 = leaves)");
  app.add_option("--top", options.top, "Only the first N sets after sorting (0: all)");
  app.add_option("--jobs", options.jobs,
                 "Jobs file (JOBID HOSTLIST lines, as squeue -h -o \"%A %N\" prints them): each "
                 "job's hosts are a set, with its traffic and locality over the window")
      ->type_name("FILE");
  app.add_option("--sets", options.set_files,
                 "File of operator-defined node sets: 'NAME: HOSTLIST|GUID ...' per line")
      ->check(CLI::ExistingFile);
  app.add_option("--slurm-topology", options.slurm_in,
                 "Slurm topology.conf: each SwitchName is a node set")
      ->check(CLI::ExistingFile);
  app.add_option("--write-slurm-topology", options.slurm_out,
                 "Write a Slurm topology.conf of this fabric (leaves, spines, cores)");
  app.add_flag("--no-subtrees", options.no_subtrees, "Only the sets from --sets / --slurm-topology");
  return ibpm::plugin::run_tool(app, argc, argv, [&] { run(options); });
}
