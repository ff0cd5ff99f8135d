#include "analysis/collect.hpp"

#include <algorithm>
#include <filesystem>

#include "fabric/graph.hpp"
#include "locality/down_sets.hpp"
#include "locality/node_set_file.hpp"
#include "locality/slurm_topology.hpp"
#include "routes/job_routes.hpp"
#include "routes/lft_file.hpp"
#include "state/port_store.hpp"
#include "topology/topology_source.hpp"
#include "viz/degraded_links.hpp"
#include "viz/history_annotations.hpp"

namespace ibpm::analysis {

std::string FabricAnalysis::name(std::size_t node_index) const {
  return display_name(fabric().nodes()[node_index], name_map());
}

std::string FabricAnalysis::port_name(PortRef port) const {
  return ibpm::port_name(fabric(), port, name_map());
}

const PortState* FabricAnalysis::port(PortRef ref) const {
  auto found = ports.find(ref);
  return found == ports.end() ? nullptr : &found->second;
}

namespace {

std::vector<locality::NodeSet> node_sets(const FabricAnalysis& data, const locality::DownSets& down,
                                         const CollectOptions& options,
                                         std::vector<std::string>& warnings) {
  const Fabric& fabric = data.fabric();
  std::vector<locality::NodeSet> sets;
  if (options.subtrees) sets = locality::subtree_sets(fabric, down, data.name_map());
  for (const auto& file : options.set_files)
    for (auto& set : locality::load_node_set_file(file, fabric, down, data.name_map()))
      sets.push_back(std::move(set));
  if (!options.slurm_topology.empty())
    for (auto& set :
         locality::load_slurm_topology(options.slurm_topology, fabric, down, data.name_map()))
      sets.push_back(std::move(set));
  if (!options.job_sets.empty())
    for (auto& set :
         locality::load_job_sets(options.job_sets, fabric, down, data.name_map(), warnings))
      sets.push_back(std::move(set));
  if (options.level) std::erase_if(sets, [&](const auto& s) { return s.level != *options.level; });
  return sets;
}

// Every cabled port's own history and last sample (the node pages show them; the link usage is
// made from the same histories, so each file is read once).
void read_ports(FabricAnalysis& data, const std::string& state_dir, const CollectOptions& options) {
  const state::PortStore store(state::StoreOptions{state_dir, options.history.rrdcached, {}});
  for (const Node& node : data.fabric().nodes()) {
    node.for_each_port([&](const Port& port) {
      if (!port.link) return;
      const PortRef ref{node.guid, port.number};
      try {
        PortState state;
        state.history = data.reader->read(node.guid, port.number, data.window, options.peaks);
        if (!state.history.found && !std::filesystem::exists(store.path(node.guid, port.number)))
          return;
        state.last = store.read(node.guid, port.number);
        data.ports.emplace(ref, std::move(state));
      } catch (const std::exception& e) {
        data.warnings.push_back(e.what());
      }
    });
  }
}

// The link usage and the window's coverage, each port's file read once.
void read_usage(FabricAnalysis& data, const std::string& state_dir, const CollectOptions& options) {
  const history::UsageOptions usage_options{options.xmit_wait_tick_ns, options.peaks};
  if (options.port_records) {
    read_ports(data, state_dir, options);
    data.usage = history::link_usage(
        data.fabric(),
        [&](PortRef port) {
          const PortState* state = data.port(port);
          return state ? state->history : history::PortHistory{};
        },
        usage_options);
    for (const auto& [ref, state] : data.ports) data.coverage.add(state.history);
    return;
  }
  data.usage = history::link_usage(
      data.fabric(),
      [&](PortRef port) {
        history::PortHistory read =
            data.reader->read(port.node, port.port, data.window, options.peaks);
        data.coverage.add(read);
        return read;
      },
      usage_options);
}

// Host pairs per cable direction and the jobs behind each, from STATE_DIR/routes.lft (written by
// ibpm-routes --refresh); nothing when there is none.
void read_routes(FabricAnalysis& data, const std::string& state_dir,
                 const CollectOptions& options) {
  const std::string path = routes::lft_file_path(state_dir);
  if (!std::filesystem::exists(path)) {
    if (!options.route_jobs.empty())
      data.warnings.push_back("--jobs: no " + path + " (ibpm-routes --refresh writes it)");
    return;
  }
  try {
    const routes::ForwardingTables tables = routes::read_lft_file(path);
    const routes::RouteMap map(data.fabric(), tables);
    viz::annotate_routes(data.fabric(), data.annotations, map);
    if (!options.route_jobs.empty())
      data.jobs_by_direction = routes::job_directions(
          map, job_endpoints(map, data.name_map(), jobs::read_jobs_file(options.route_jobs)));
  } catch (const std::exception& e) {
    data.warnings.push_back(path + ": " + e.what());
  }
}

}  // namespace

FabricAnalysis collect(const plugin::FabricOptions& fabric_options, const CollectOptions& options) {
  FabricAnalysis data;
  data.topology = topology::TopologySource(
                      {.cache = fabric_options.cache, .state_dir = fabric_options.state_dir})
                      .load(topology::TopologyRefresh::offline);
  data.names = NodeNameMap::load_if_named(fabric_options.node_name_map);
  const Fabric& fabric = data.fabric();
  data.levels.emplace(fabric, make_graph(fabric));
  data.generated = std::time(nullptr);
  data.window = history::Window{data.generated - options.history.window, data.generated};
  data.coverage = history::WindowCoverage(data.window);

  const locality::DownSets down(fabric, *data.levels);
  data.sets = node_sets(data, down, options, data.warnings);
  const std::string& state_dir = fabric_options.state_dir;
  if (options.read_history &&
      (!options.history_needs_state_dir || std::filesystem::is_directory(state_dir))) {
    data.reader.emplace(state_dir, options.history.rrdcached);
    read_usage(data, state_dir, options);
    data.traffic = locality::set_traffic(fabric, down, data.sets, data.usage, data.name_map());
    if (options.annotate) {
      data.annotations =
          viz::annotations_from_history(fabric, data.usage, data.traffic, data.coverage);
      data.ber = link_quality::read_recorded_ber(state_dir, {}, data.warnings);
      viz::annotate_ber(fabric, data.annotations, data.ber, data.name_map());
      read_routes(data, state_dir, options);
    }
  }
  if (!options.baseline.empty()) data.baseline = topology::load_topology_file(options.baseline);
  if (options.annotate) {
    viz::mark_degraded_links(fabric, data.annotations,
                             data.baseline ? &data.baseline->fabric : nullptr);
    viz::derive_node_health(fabric, data.annotations);
  }
  return data;
}

}  // namespace ibpm::analysis
