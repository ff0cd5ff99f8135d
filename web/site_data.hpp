// Everything the dashboard shows, gathered once: the topology and its levels, the link usage and
// per-port history over the window, the locality of every subtree, the map's annotations, the
// last sweep's summary and the changes against a baseline. Pages only format it.
#pragma once

#include <ctime>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "fabric/node_name_map.hpp"
#include "history/history_options.hpp"
#include "history/link_usage.hpp"
#include "history/window_coverage.hpp"
#include "link_quality/recorded_ber.hpp"
#include "levels/fabric_levels.hpp"
#include "locality/node_sets.hpp"
#include "locality/traffic_locality.hpp"
#include "plugin/options.hpp"
#include "state/port_record.hpp"
#include "topology/topology.hpp"
#include "topology/topology_diff.hpp"
#include "viz/map_model.hpp"
#include "products/sweep_summary.hpp"

namespace ibpm::web {

struct SiteOptions {
  std::string state_dir;
  history::HistoryOptions history;
  std::string baseline;  // a topology file to compare with (empty: degraded links only)
  std::string jobs;      // JOBID HOSTLIST lines: the jobs behind each cable (with routes.lft)
  bool read_history = true;  // false: the topology alone (no RRD files read)
};

// What one port's own RRD file says: the averages over the window and its last sample.
struct PortState {
  history::PortHistory history;
  std::optional<state::PortRecord> last;
};

struct SiteData {
  Topology topology;
  std::optional<NodeNameMap> names;
  std::optional<FabricLevels> levels;
  history::Window window;
  history::WindowCoverage coverage;  // how much of the window the ports' files have
  std::time_t generated = 0;
  std::optional<history::HistoryReader> reader;   // set when the state directory exists
  std::vector<history::LinkUsage> usage;          // by link index; empty without history
  std::map<PortRef, PortState> ports;             // ports with a file
  std::map<PortRef, link_quality::RecordedBer> ber;  // from the sample records in the state dir
  std::map<PortRef, std::vector<std::string>> jobs_by_direction;  // by the port it leaves through
  std::vector<locality::NodeSet> sets;
  std::vector<locality::SetTraffic> traffic;      // by set
  viz::MapAnnotations annotations;
  std::optional<products::SweepSummary> sweep;
  std::optional<std::string> sweep_error;         // why the summary could not be read
  TopologyDiff diff;
  bool has_baseline = false;
  std::vector<std::string> warnings;              // shown on the overview

  const Fabric& fabric() const { return topology.fabric; }
  const NodeNameMap* name_map() const { return names ? &*names : nullptr; }
  std::string name(std::size_t node_index) const;
  std::string port_name(PortRef port) const;  // "leaf01[3]"
  const history::LinkUsage* link_usage(std::size_t link) const {
    return link < usage.size() ? &usage[link] : nullptr;
  }
  const PortState* port(PortRef ref) const;
};

// Throws std::runtime_error with a one-line reason (topology, baseline or node-name-map).
SiteData collect_site_data(const plugin::FabricOptions& fabric_options, const SiteOptions& options);


}  // namespace ibpm::web
