// SPDX-License-Identifier: MIT
// One sweep: the whole fabric (or this collector's shard of it) polled in one run through the
// MAD engine, every port's RRD written, the same thresholds as the port checks evaluated.
//
// The topology comes from --cache, else STATE_DIR/topology.ibnetdiscover (discovered and saved
// the first time, and again when it is older than --rediscover-after or when a LID answers as
// another node than the topology says).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "delegation/delegation.hpp"
#include "delegation/split_nodes.hpp"
#include "mad/engine_options.hpp"
#include "plugin/cli.hpp"
#include "plugin/cli_fwd.hpp"
#include "poll/pending_record.hpp"
#include "poll/poll_options.hpp"
#include "poll/port_result.hpp"
#include "poll/store_trouble.hpp"
#include "sweep/fabric_targets.hpp"
#include "thresholds/rate_thresholds.hpp"
#include "topology/topology.hpp"

namespace ibpm::sweep {

struct SweepOptions : poll::PollOptions {
  NodeFilter types = NodeFilter::all;
  std::vector<std::string> nodes;  // only these nodes (GUID, LID or name); empty: all
  // The nodes are a re-poll beside the sweeps (see is_repoll): check_ib_fabric's --node, set by
  // add_repoll_option.
  bool repoll = false;
  // Port GUIDs that came into service (trap 64) and the topology lacks: learnt at the SA, added
  // to the saved topology and re-polled with the switch they are cabled to (port_join.hpp).
  std::vector<std::string> join;
  // A re-poll reads every port's counters, not only those of the ports whose link changed or
  // that were not reported OK (poll/port_info_first.hpp).
  bool all_counters = false;
  delegation::ShardSpec shard;  // K/N; 1/1 polls everything
  std::string delegation_file;  // pins and collectors
  delegation::AssignMode assign = delegation::AssignMode::even;
  int rediscover_after_s = 3600;    // age of the state topology that triggers a discovery
  bool clear_counters = false;      // clear every error counter of the polled ports
  unsigned port_info_every = 10;    // PortInfo of a quiet port every this many sweeps
  unsigned store_check_every = 10;  // a central store's check of a port every this many sweeps
};

// "fabric", or "shard-K-of-N": the name of the sweep's summary and sample record; "nodes" for a
// re-poll.
std::string sweep_scope(const SweepOptions& options);
// The sweeps' scope whatever the run: a re-poll's sweeps' record.
std::string sweeps_scope(const SweepOptions& options);

// A re-poll of a few nodes (--node), as the event listener asks for the switch a trap names:
// every port's PortInfo read, its samples kept in its own record (samples/nodes.rec) and no
// history written (the sweeps' files stay theirs), no summary replaced, the series of the ports
// it read replaced in the OpenMetrics file (the others' kept); its events and passive results go
// where the sweep's go.
bool is_repoll(const SweepOptions& options);

// --type, --shard, --delegation, --assign, --rediscover-after (the "Sweep" group). Call after
// add_fabric_options; add_poll_options is separate.
void add_sweep_options(CLI::App& app, SweepOptions& options);
// --node and --join (check_ib_fabric's: a re-poll, see is_repoll).
void add_repoll_option(CLI::App& app, SweepOptions& options);

struct SweepResult {
  topology::Topology topology;
  std::optional<NodeNameMap> names;
  thresholds::RateThresholds thresholds;
  std::size_t fabric_ports = 0;           // ports of the chosen types in the whole fabric
  std::vector<std::string> without_lid;   // cabled ports that cannot be queried
  std::vector<poll::PortResult> results;  // this shard's ports
  poll::PendingRecord pending;            // saved once the ports are judged
  std::vector<std::string> state_notes;   // the sample record ignored or not written
  std::size_t from_rrd = 0;               // previous samples read from RRD files
  std::size_t store_checked = 0;          // ports checked against the central store
  poll::StoreTrouble store;               // the store's failure and refusals, said once
  bool central_store = false;             // the files are in a central store (over TCP)
  std::vector<std::size_t> shard_loads;   // ports per shard (shard 1 first)
  // Nodes whose ports pins put on more than one shard, each port's shard: which shard gives
  // such a switch's passive result (products/switch_results.hpp).
  delegation::SplitNodes split_nodes;
  double started = 0;                           // epoch seconds
  double duration = 0;                          // seconds, topology to state written
  double poll_duration = 0;                     // seconds in the MAD engine and the state
  std::optional<double> first_read, last_read;  // epoch seconds of the earliest/latest counters
  mad::EngineStats mad_stats;
  bool rediscovered = false;
  std::string topology_note;        // why it was discovered again, when it was
  std::vector<std::string> joined;  // nodes --join added to the topology, described
  // A re-poll's nodes whose description or system image GUID changed, written into the saved
  // topology (node_refresh.hpp): what changed.
  std::vector<std::string> refreshed;

  const NodeNameMap* name_map() const { return names ? &*names : nullptr; }
};

// Throws with a one-line reason when there is nothing to poll or the topology cannot be had.
SweepResult run_sweep(const SweepOptions& options, const plugin::CommonOptions& common);

}  // namespace ibpm::sweep
