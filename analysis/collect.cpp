// SPDX-License-Identifier: MIT

#include "analysis/collect.hpp"

#include <algorithm>
#include <chrono>
#include <filesystem>

#include "analysis/congestion_analysis.hpp"
#include "fabric/graph.hpp"
#include "locality/aggregate_history.hpp"
#include "locality/down_sets.hpp"
#include "locality/node_set_file.hpp"
#include "locality/slurm_topology.hpp"
#include "routes/job_routes.hpp"
#include "routes/lft_file.hpp"
#include "state/port_store.hpp"
#include "topology/fabric_topology.hpp"
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

// Ports whose files could not be read: the first few reasons named, the rest counted. A store
// that is down fails every port with the same reason: said once, with the number of ports.
void add_port_warnings(std::vector<std::string>& warnings, const std::vector<std::string>& errors) {
  constexpr std::size_t kNamed = 10;
  std::vector<std::pair<std::string, std::size_t>> reasons;  // in the order first met
  for (const std::string& error : errors) {
    const auto same = std::find_if(reasons.begin(), reasons.end(),
                                   [&](const auto& reason) { return reason.first == error; });
    if (same != reasons.end())
      ++same->second;
    else
      reasons.emplace_back(error, 1);
  }
  std::size_t unnamed = 0;
  for (std::size_t i = 0; i < reasons.size(); ++i) {
    const auto& [reason, ports] = reasons[i];
    if (i >= kNamed)
      unnamed += ports;
    else
      warnings.push_back(reason + (ports > 1 ? " (" + std::to_string(ports) + " ports)" : ""));
  }
  if (unnamed > 0)
    warnings.push_back("and " + std::to_string(unnamed) +
                       " more ports whose history could not be read");
}

// Every cabled port of the fabric, in node order.
std::vector<PortRef> cabled_ports(const Fabric& fabric) {
  std::vector<PortRef> ports;
  for (const Node& node : fabric.nodes())
    node.for_each_port([&](const Port& port) {
      if (port.link) ports.push_back({node.guid, port.number});
    });
  return ports;
}

// Every cabled port's history over the window, all read at once (see HistoryReader::read_all). A
// file that cannot be read costs that port's history and a warning, not the report.
std::map<PortRef, history::PortHistory> read_histories(FabricAnalysis& data,
                                                       const std::vector<PortRef>& ports,
                                                       const CollectOptions& options) {
  std::map<PortRef, history::PortHistory> histories;
  std::vector<history::HistoryReader::Read> reads =
      data.reader->read_all(ports, data.window, options.peaks);
  std::vector<std::string> errors;
  for (std::size_t i = 0; i < ports.size(); ++i) {
    if (!reads[i].error.empty()) {
      data.coverage.add_unreadable(reads[i].error);
      errors.push_back(std::move(reads[i].error));
    }
    if (reads[i].history.found) histories.emplace(ports[i], std::move(reads[i].history));
  }
  add_port_warnings(data.warnings, errors);
  return histories;
}

// Every cabled port's own history and last sample (the node pages show them; the link usage is
// made from the same histories, so each file is read once).
void read_ports(FabricAnalysis& data, const CollectOptions& options) {
  const state::PortStore& store = data.reader->store();  // the one the histories came through
  const std::vector<PortRef> ports = cabled_ports(data.fabric());
  // One -t for both reads through the daemon: the last samples get what the histories left.
  const auto deadline =
      std::chrono::steady_clock::now() + std::chrono::seconds(options.history.timeout);
  std::map<PortRef, history::PortHistory> histories = read_histories(data, ports, options);
  const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
      deadline - std::chrono::steady_clock::now());
  std::vector<state::PortStore::ReadResult> last(ports.size());
  if (!store.uses_daemon() || left.count() > 0)
    last = store.read_all(ports, static_cast<double>(data.generated), left);
  else
    data.warnings.push_back("the ports' last samples not read: no time left of -t " +
                            std::to_string(options.history.timeout) + " s");
  std::vector<std::string> errors;
  for (const state::PortStore::ReadResult& read : last)
    if (!read.error.empty()) errors.push_back(read.error);
  add_port_warnings(data.warnings, errors);
  for (std::size_t i = 0; i < ports.size(); ++i) {
    const auto history = histories.find(ports[i]);
    if (history == histories.end() && !last[i].record) continue;  // never polled
    PortState state;
    if (history != histories.end()) state.history = std::move(history->second);
    state.last = last[i].record;
    data.ports.emplace(ports[i], std::move(state));
  }
}

// The link usage and the window's coverage, each port's file read once.
void read_usage(FabricAnalysis& data, const CollectOptions& options) {
  const history::UsageOptions usage_options{options.xmit_wait_tick_ns, options.peaks};
  if (options.port_records) {
    read_ports(data, options);
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
  const std::vector<PortRef> ports = cabled_ports(data.fabric());
  const std::map<PortRef, history::PortHistory> histories = read_histories(data, ports, options);
  data.usage = history::link_usage(
      data.fabric(),
      [&](PortRef port) {
        const auto found = histories.find(port);
        return found == histories.end() ? history::PortHistory{} : found->second;
      },
      usage_options);
  for (const PortRef& port : ports) {
    const auto found = histories.find(port);
    data.coverage.add(found == histories.end() ? history::PortHistory{} : found->second);
  }
}

// The congestion trees of the window on the map: roots and the ports waiting behind them
// (congestion_analysis.hpp, default thresholds), where the history has XmitWait.
void mark_congestion(FabricAnalysis& data, const routes::RouteMap& map) {
  const EgressLoads loads = egress_loads(data.usage);
  if (!has_xmit_wait(loads)) return;
  data.congestion = find_congestion(map, loads, {}, &data.jobs_by_direction);
  std::map<PortRef, viz::CongestionMark> marks;
  for (const CongestedPort& port : data.congestion->ports)
    marks[port.port] =
        port.role == CongestionRole::root ? viz::CongestionMark::root : viz::CongestionMark::victim;
  viz::annotate_congestion(data.fabric(), data.annotations, marks);
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
      data.jobs_by_direction =
          routes::job_directions(map, read_job_endpoints(map, data.name_map(), options.route_jobs));
    mark_congestion(data, map);
  } catch (const std::exception& e) {
    data.warnings.push_back(path + ": " + e.what());
  }
}

// The sets' traffic from the sweeps' aggregates, when asked, only subtrees are measured and the
// aggregates cover the window (true); else the reason is kept and the ports are read (false).
bool traffic_from_aggregates(FabricAnalysis& data, const locality::DownSets& down,
                             const CollectOptions& options) {
  if (!options.aggregates) return false;
  locality::AggregateHistory history;
  if (!options.subtrees || !options.set_files.empty() || !options.slurm_topology.empty() ||
      !options.job_sets.empty() || options.port_records || options.annotate || options.rows ||
      !options.baseline.empty())
    history.reason = "sets other than subtrees asked";
  else
    history = locality::read_aggregate_history(
        data.reader->store(), locality::subtree_aggregates(data.fabric(), data.sets), data.window,
        std::chrono::seconds(options.history.timeout));
  data.history_source = locality::describe_source(history, true);
  if (!history.used) return false;
  data.traffic =
      locality::set_traffic(data.fabric(), down, data.sets, history.sums, data.name_map());
  data.coverage.step = history.step;
  data.coverage.covered = history.covered;
  data.coverage.ports_read = history.files;
  data.coverage.ports_with_history = history.covered > 0 ? data.sets.size() : 0;
  return true;
}

}  // namespace

std::string history_failure(const FabricAnalysis& data) {
  return data.reader && data.coverage.unreadable() ? describe_coverage(data.coverage) : "";
}

FabricAnalysis collect(const plugin::FabricOptions& fabric_options, const CollectOptions& options) {
  FabricAnalysis data;
  data.topology =
      topology::topology_source(fabric_options).load(topology::TopologyRefresh::offline);
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
    data.reader.emplace(state_dir, options.history.rrdcached,
                        std::chrono::seconds(options.history.timeout));
    data.reader->keep_rows(options.rows || options.annotate);
    if (!traffic_from_aggregates(data, down, options)) {
      if (data.history_source.empty()) data.history_source = "per-port files";
      read_usage(data, options);
      data.traffic = locality::set_traffic(fabric, down, data.sets, data.usage, data.name_map());
    }
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
