// SPDX-License-Identifier: MIT
// One pass over what the analyzers show: the topology and its levels, the node sets, the RRD
// history over the window (per-port histories, link usage and its coverage), the traffic of each
// set, and for the map and the dashboard their annotations (bit error ratios, routes, degraded
// links, node health). ibpm-map, ibpm-web, ibpm-locality and ibpm-utilization all call collect();
// each then only presents what it needs.
//
// Why here, in analysis/ above the core: collect() combines core/history, core/levels,
// core/routes and core/link_quality with the locality computation (locality/) and the map's
// annotation model (viz/), so it cannot live in any of them without an arrow pointing up. The
// presenters (viz's ibpm-map, web/, and the two text analyzers beside this file) sit above it.
#pragma once

#include <ctime>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "analysis/congestion_analysis.hpp"
#include "fabric/node_name_map.hpp"
#include "history/history_options.hpp"
#include "history/link_usage.hpp"
#include "history/window_coverage.hpp"
#include "levels/fabric_levels.hpp"
#include "link_quality/recorded_ber.hpp"
#include "locality/node_sets.hpp"
#include "locality/traffic_locality.hpp"
#include "plugin/options.hpp"
#include "state/port_record.hpp"
#include "topology/topology.hpp"
#include "viz/map_model.hpp"

namespace ibpm::analysis {

struct CollectOptions {
  history::HistoryOptions history;  // the window and rrdcached
  // The history: false reads no RRD file (the topology alone).
  bool read_history = true;
  // true: a missing state directory means no history at all (the map, the dashboard); false: the
  // ports are read anyway and found empty (the text analyzers report "no history").
  bool history_needs_state_dir = true;
  bool peaks = true;  // false: averages only (half the RRD reads; peaks = averages)
  std::optional<double> xmit_wait_tick_ns;  // nullopt: one tick = the time of one data word
  // true: every cabled port's own history and last sample record into ports (the dashboard's
  // node pages); a port whose files cannot be read is a warning, not an error.
  bool port_records = false;

  // Each port's rows kept beside its averages (history::PortHistory::rows), so that the
  // congestion trees judge waiting and fullness row by row (ibpm-congestion; the map's
  // congestion marks with annotate keep them too).
  bool rows = false;

  // The node sets whose traffic is measured: subtrees, then operator sets, Slurm switches, jobs.
  bool subtrees = true;
  std::vector<std::string> set_files;  // 'NAME: HOSTLIST|GUID ...' per line
  std::string slurm_topology;          // a Slurm topology.conf: each SwitchName is a set
  std::string job_sets;                // JOBID HOSTLIST lines: each job's hosts are a set
  std::optional<int> level;            // only sets rooted at this level
  // The subtrees' sums from the sweeps' aggregate files (locality/aggregate_history.hpp) when
  // they cover the window and only subtrees are asked, without reading every port's file; the
  // link usage is then left empty. false: every port's file (the truth they are tested against).
  bool aggregates = false;

  // The map's annotations (utilization, locality, bit error ratios, routes, degraded links,
  // node health); false leaves them empty.
  bool annotate = false;
  std::string baseline;    // a topology file: cables running below it are degraded
  std::string route_jobs;  // JOBID HOSTLIST lines: the jobs behind each cable (with routes.lft)
};

// What one port's own RRD file says: the averages over the window and its last sample.
struct PortState {
  history::PortHistory history;
  std::optional<state::PortRecord> last;
};

struct FabricAnalysis {
  topology::Topology topology;
  std::optional<NodeNameMap> names;
  std::optional<levels::FabricLevels> levels;
  history::Window window;
  history::WindowCoverage coverage;  // how much of the window the ports' files have
  std::time_t generated = 0;
  std::optional<history::HistoryReader> reader;      // set when the history was read
  std::vector<history::LinkUsage> usage;             // by link index; empty without history
  std::map<PortRef, PortState> ports;                // ports with a file (port_records only)
  std::map<PortRef, link_quality::RecordedBer> ber;  // from the sample records (annotate only)
  std::map<PortRef, std::vector<std::string>> jobs_by_direction;  // by the port it leaves through
  // The congestion trees of the window (default thresholds, the jobs above), when the history
  // has XmitWait and STATE_DIR/routes.lft is there (annotate only).
  std::optional<CongestionReport> congestion;
  std::vector<locality::NodeSet> sets;
  std::vector<locality::SetTraffic> traffic;  // by set; empty without history
  // Where the sets' traffic came from: "per-port files", "per-subtree aggregates (...)", or the
  // per-port files and why the aggregates asked for were not used.
  std::string history_source;
  viz::MapAnnotations annotations;
  std::optional<topology::Topology> baseline;  // CollectOptions::baseline, loaded
  std::vector<std::string> warnings;           // what could not be read, one line each

  const Fabric& fabric() const { return topology.fabric; }
  const NodeNameMap* name_map() const { return names ? &*names : nullptr; }
  std::string name(std::size_t node_index) const;
  std::string port_name(PortRef port) const;  // "leaf01[3]"
  const history::LinkUsage* link_usage(std::size_t link) const {
    return link < usage.size() ? &usage[link] : nullptr;
  }
  const PortState* port(PortRef ref) const;
};

// The state directory is fabric_options.state_dir. Throws std::runtime_error with a one-line
// reason (topology, node-name-map, set files, baseline). A port whose RRD file cannot be read
// (corrupt, foreign, the store down) loses its history and is named in `warnings`.
FabricAnalysis collect(const plugin::FabricOptions& fabric_options, const CollectOptions& options);

// Why no history at all could be read, when none was and the store failed ports (rrdcached
// silent or refusing, files unreadable): "no history in the last 60 min could be read: 64 ports
// failed, the first: REASON". Empty when some history was read, when none was asked for, and when
// there is none yet (nothing swept, or not for long enough): those are no failure. The tools say
// it and exit non-zero after writing what they show.
std::string history_failure(const FabricAnalysis& data);

}  // namespace ibpm::analysis
