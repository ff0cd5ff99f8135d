// SPDX-License-Identifier: MIT
// What check_ib_port and check_ib_node share: their options, finding the node in the topology
// (re-discovering it when the topology turns out stale), polling its ports with state, and
// turning the results into subchecks.
//
// The topology comes from --cache when given; otherwise from STATE_DIR/topology.ibnetdiscover,
// which is written by a live discovery the first time and rewritten whenever a LID answers with
// another GUID than the topology says, or stops answering.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "mad/engine_options.hpp"
#include "plugin/cli.hpp"
#include "plugin/cli_fwd.hpp"
#include "plugin/options.hpp"
#include "poll/poll_options.hpp"
#include "poll/port_report.hpp"
#include "poll/port_result.hpp"
#include "poll/store_trouble.hpp"
#include "topology/topology.hpp"

namespace ibpm::poll {

struct PortCheckOptions : PollOptions {
  std::string node;  // NODE: GUID, LID or name
  int port = 0;      // check_ib_port only
  std::string jobs;  // JOBID HOSTLIST lines: the jobs a port in trouble hurts
};

// The options both checks take (NODE, state, MAD timing, thresholds, resets); --port when
// `with_port`.
void add_port_check_options(CLI::App& app, PortCheckOptions& options, bool with_port);

struct NodePoll {
  topology::Topology topology;
  std::optional<NodeNameMap> names;
  const Node* node = nullptr;  // into topology.fabric
  std::vector<PortResult> results;
  std::vector<std::string> notes;  // the sample record ignored, the state folder shared: why
  std::optional<std::string> record_failure;  // the sample record not saved: why
  StoreTrouble store;          // the store's failure and refused updates (add_store_lines)
  bool central_store = false;  // the files are in a central store (over TCP)
  thresholds::RateThresholds thresholds;
  bool rediscovered = false;   // the topology was stale and was discovered again
  mad::EngineStats mad_stats;  // over the whole run
};

// Polls the node's port (single_port) or all its cabled ports. Throws with a one-line reason
// when the node cannot be found or nothing can be polled (the plugin turns it into UNKNOWN).
NodePoll poll_node(const PortCheckOptions& options, const plugin::CommonOptions& common,
                   bool single_port);

ReportSettings report_settings(const PollOptions& options,
                               const thresholds::RateThresholds& thresholds);

// Adds to each port not OK whom its cable hurts ("carries traffic of N hosts (M jobs: ...)"), from
// STATE_DIR/routes.lft and --jobs; returns why it could not, or "". `checks` are the ports'
// subchecks, in poll.results order.
std::string add_route_impact(const PortCheckOptions& options, const NodePoll& poll,
                             std::vector<plugin::Subcheck*> checks);

}  // namespace ibpm::poll
