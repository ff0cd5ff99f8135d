#include "site_data.hpp"

#include <filesystem>
#include <iostream>

#include "fabric/graph.hpp"
#include "locality/down_sets.hpp"
#include "topology/topology_source.hpp"
#include "routes/job_routes.hpp"
#include "routes/lft_file.hpp"
#include "state/port_store.hpp"
#include "viz/degraded_links.hpp"
#include "viz/history_annotations.hpp"

namespace ibpm::web {

std::string SiteData::name(std::size_t node_index) const {
  return display_name(fabric().nodes()[node_index], name_map());
}

std::string SiteData::port_name(PortRef port) const {
  return ibpm::port_name(fabric(), port, name_map());
}

const PortState* SiteData::port(PortRef ref) const {
  auto found = ports.find(ref);
  return found == ports.end() ? nullptr : &found->second;
}

namespace {

// Every cabled port's own history and last sample (the node pages show them; the link usage is
// made from the same histories, so each file is read once).
void read_ports(SiteData& data, const std::string& state_dir, const std::string& rrdcached) {
  const state::PortStore store(state::StoreOptions{state_dir, rrdcached, {}});
  for (const Node& node : data.fabric().nodes()) {
    node.for_each_port([&](const Port& port) {
      if (!port.link) return;
      const PortRef ref{node.guid, port.number};
      try {
        PortState state;
        state.history = data.reader->read(node.guid, port.number, data.window);
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

// Host pairs per cable direction and the jobs behind each, from STATE_DIR/routes.lft (written by
// ibpm-routes --refresh); nothing when there is none.
void read_routes(SiteData& data, const SiteOptions& options) {
  const std::string path = routes::lft_file_path(options.state_dir);
  if (!std::filesystem::exists(path)) {
    if (!options.jobs.empty())
      data.warnings.push_back("--jobs: no " + path + " (ibpm-routes --refresh writes it)");
    return;
  }
  try {
    const routes::ForwardingTables tables = routes::read_lft_file(path);
    const routes::RouteMap map(data.fabric(), tables);
    viz::annotate_routes(data.fabric(), data.annotations, map);
    if (!options.jobs.empty())
      data.jobs_by_direction = routes::job_directions(
          map, job_endpoints(map, data.name_map(), jobs::read_jobs_file(options.jobs)));
  } catch (const std::exception& e) {
    data.warnings.push_back(path + ": " + e.what());
  }
}

}  // namespace

SiteData collect_site_data(const plugin::FabricOptions& fabric_options, const SiteOptions& options) {
  SiteData data;
  data.topology =
      TopologySource({.cache = fabric_options.cache, .state_dir = fabric_options.state_dir})
          .load(TopologyRefresh::offline);
  data.names = NodeNameMap::load_if_named(fabric_options.node_name_map);
  const Fabric& fabric = data.fabric();
  data.levels.emplace(fabric, make_graph(fabric));
  data.generated = std::time(nullptr);
  data.window = history::Window{data.generated - options.history.window, data.generated};
  data.coverage = history::WindowCoverage(data.window);

  const locality::DownSets down(fabric, *data.levels);
  data.sets = locality::subtree_sets(fabric, down, data.name_map());
  if (options.read_history && std::filesystem::is_directory(options.state_dir)) {
    data.reader.emplace(options.state_dir, options.history.rrdcached);
    read_ports(data, options.state_dir, options.history.rrdcached);
    data.usage = history::link_usage(fabric, [&](PortRef port) {
      const PortState* state = data.port(port);
      return state ? state->history : history::PortHistory{};
    });
    for (const auto& [ref, state] : data.ports) data.coverage.add(state.history);
    data.traffic = locality::set_traffic(fabric, down, data.sets, data.usage, data.name_map());
    data.annotations =
        viz::annotations_from_history(fabric, data.usage, data.traffic, data.coverage);
    data.ber = link_quality::read_recorded_ber(options.state_dir, {}, data.warnings);
    viz::annotate_ber(fabric, data.annotations, data.ber, data.name_map());
    read_routes(data, options);
    try {
      data.sweep = read_sweep_summary(options.state_dir);
    } catch (const std::exception& e) {
      data.sweep_error = e.what();
    }
  } else if (options.read_history) {
    data.warnings.push_back("no state directory " + options.state_dir +
                            ": no counter history, no sweep summary");
  }
  std::optional<Topology> baseline;
  if (!options.baseline.empty()) baseline = load_topology_file(options.baseline);
  data.has_baseline = baseline.has_value();
  const Fabric* baseline_fabric = baseline ? &baseline->fabric : nullptr;
  data.diff = compare_topology(baseline_fabric, fabric, data.name_map());
  viz::mark_degraded_links(fabric, data.annotations, baseline_fabric);
  viz::derive_node_health(fabric, data.annotations);
  return data;
}

}  // namespace ibpm::web
