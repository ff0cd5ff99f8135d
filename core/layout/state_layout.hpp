// SPDX-License-Identifier: MIT
// The state directory's map (--state-dir, /var/lib/ibpm by default): the one place that names
// its files and folders. Every reader and writer asks it for a path;
// tests/layering/check_state_layout.py fails when a name below appears anywhere else.
//
//   topology.ibnetdiscover   the fabric as last discovered (TopologySource)
//   lost-cables.ibnetdiscover  cables discoveries no longer see, until accepted (lost_cables)
//   targets/NODE.ibnetdiscover  a node check's slice of it (topology_slice)
//   cache.fabric             the --cache file's fabric, for the next run (cache_snapshot)
//   0xGUID/portN.rrd         a port's counter history (PortStore)
//   aggregates/SCOPE/NAME.rrd  a sweep scope's traffic sums per subtree (write_aggregates)
//   samples/NAME.rec         a run's last samples, per check or sweep scope (SampleRecord)
//   samples/SCOPE.store-failed  a sweep's store failing since when, and why (store_events)
//   node.locks               which nodes a run is polling now (node_locks)
//   sweep/SCOPE.json         a sweep's summary: fabric.json or shard-K-of-N.json (sweep_summary)
//   routes.lft               the switches' forwarding tables (ibpm-routes --refresh)
//   sm/CA-PORT.state         what check_ib_sm remembers of the subnet manager
//   baseline.cache           check_ib_topology's baseline, as ibpm-nagios-config sets it up
#pragma once

#include <string>

#include "fabric/types.hpp"

namespace ibpm::layout {

class StateLayout {
 public:
  explicit StateLayout(std::string state_dir) : dir_(std::move(state_dir)) {}

  const std::string& dir() const { return dir_; }

  std::string topology() const;
  std::string lost_cables() const;
  std::string slices_dir() const;
  std::string slice(const std::string& file_name) const;  // file_name: made safe by the caller
  std::string cache_snapshot() const;
  std::string samples_dir() const;
  std::string sample_record(const std::string& file_name) const;
  std::string store_failure(const std::string& file_name) const;
  std::string node_locks() const;
  std::string sweep_dir() const;
  std::string sweep_summary(const std::string& scope) const;
  std::string routes() const;
  std::string sm_dir() const;
  std::string sm_state(const std::string& ca, int port) const;
  std::string baseline() const;
  std::string port_history(Guid node, PortNumber port) const;
  // A sweep scope's ("fabric", "shard-K-of-N") folder of per-subtree sums, and one subtree's file
  // there (name: made safe by the caller); the relative_ ones as a central store names them.
  std::string aggregates_dir() const;
  static std::string relative_aggregates_dir();
  std::string aggregate_scope_dir(const std::string& scope) const;
  std::string aggregate(const std::string& scope, const std::string& name) const;
  static std::string relative_aggregate(const std::string& scope, const std::string& name);

  // "0xGUID/portN.rrd": a port's history relative to the state (or an rrdcached's base) folder.
  static std::string relative_port_history(Guid node, PortNumber port);
  // port_history and relative_port_history appended to `path`, without a string of their own: a
  // sweep names every port's file.
  void append_port_history(std::string& path, Guid node, PortNumber port) const;
  static void append_relative_port_history(std::string& path, Guid node, PortNumber port);
  // The file name endings of the folders' entries, for those who list them.
  static constexpr const char* kSampleRecordExtension = ".rec";
  static constexpr const char* kSmStateExtension = ".state";
  static constexpr const char* kSweepSummaryExtension = ".json";
  static constexpr const char* kAggregateExtension = ".rrd";

 private:
  // DIR/NAME: one '/' between them, none added after a trailing one; NAME alone for no DIR.
  std::string in_dir(const std::string& name) const;
  // "DIR/" appended to `path` (nothing for no DIR): the join in_dir makes.
  void append_dir(std::string& path) const;
  // The longest relative_port_history.
  static constexpr std::size_t kPortHistoryLength = 18 + 5 + 3 + 4;

  std::string dir_;
};

}  // namespace ibpm::layout
