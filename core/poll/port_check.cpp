// SPDX-License-Identifier: MIT

#include "poll/port_check.hpp"

#include <filesystem>
#include <map>

#include "mad/mad_link.hpp"
#include "plugin/add_option.hpp"
#include "plugin/options.hpp"
#include "poll/stale_topology.hpp"
#include "routes/cable_impact.hpp"
#include "routes/lft_file.hpp"
#include "topology/fabric_topology.hpp"

namespace ibpm::poll {

namespace {

using Clock = std::chrono::steady_clock;

std::vector<PortTarget> targets_of(const PortCheckOptions& options, const NodePoll& poll,
                                   bool single_port) {
  const NodeNameMap* names = poll.names ? &*poll.names : nullptr;
  if (single_port) return {port_target(poll.topology.fabric, names, *poll.node, options.port)};
  std::vector<PortTarget> targets = connected_port_targets(poll.topology.fabric, names, *poll.node);
  if (targets.empty())
    throw TargetError(display_name(*poll.node, names) + " has no cabled ports in the topology");
  return targets;
}

const Node* find_node(const Fabric& fabric, const NodeNameMap* names, const std::string& text) {
  try {
    return &resolve_node(fabric, names, text);
  } catch (const TargetError&) {
    return nullptr;
  }
}

// The node's topology: its slice while that is valid and has it; else the whole topology (the
// file, or a discovery when there is none); else, when no --cache names the topology (it may be
// older than the node), one discovery. Throws TargetError when the node is still not found.
void find_node_topology(const topology::TopologySource& source, const std::string& text,
                        const NodeNameMap* names, const mad::MadTap& tap, NodePoll& poll) {
  const bool replaying = tap.replaying();
  if (std::optional<topology::Topology> slice = source.load_slice(text)) {
    poll.topology = std::move(*slice);
    poll.node = find_node(poll.topology.fabric, names, text);
    if (poll.node) return;
  }
  // A replay discovers as the recorded run did, when there was no topology yet; a recording
  // without a discovery has no fabric to discover.
  const bool offline = replaying && !tap.replay()->holds_discovery();
  poll.topology = source.load(offline ? topology::TopologyRefresh::offline
                                      : topology::TopologyRefresh::discover_if_missing);
  poll.node = find_node(poll.topology.fabric, names, text);
  if (!poll.node) {
    if (!source.cache_given() && !replaying) {
      poll.topology = source.load(topology::TopologyRefresh::discover_now);
      poll.rediscovered = true;
    }
    // Found now, or the TargetError that says why not.
    poll.node = &resolve_node(poll.topology.fabric, names, text);
  }
  source.save_slice(text, poll.topology.fabric, *poll.node);
}

// Polls the node's targets once into poll.results (each check keeps its own record of samples:
// its rates cover its own interval). Discovery opens the umad port itself, so ours is open only
// while polling (under libumad2sim, two ports open at once in one process do not survive the
// first one closing).
void poll_node_ports(const PortCheckOptions& options, const PollSettings& settings,
                     const state::PortStore& store, bool single_port, mad::MadTap& tap,
                     NodePoll& poll) {
  std::vector<PortTarget> targets = targets_of(options, poll, single_port);
  PollSettings run_settings = settings;
  run_settings.record_name =
      single_port ? "port-" + format_guid(poll.node->guid) + "-" + std::to_string(options.port)
                  : "node-" + format_guid(poll.node->guid);
  mad::MadLink link(options.fabric.ca, options.fabric.port, tap);
  PollRun run = poll_ports(link.engine(), store, std::move(targets), run_settings);
  accumulate(poll.mad_stats, link.engine().stats());
  poll.results = std::move(run.results);
  poll.notes = std::move(run.notes);
  poll.store = std::move(run.store);
  poll.central_store = store.central_store();
  poll.record_failure = save_record(run.pending, poll.results);
}

}  // namespace

void add_port_check_options(CLI::App& app, PortCheckOptions& options, bool with_port) {
  plugin::add_fabric_options(app, options.fabric);
  plugin::add_option(
      app, "-n,--node", options.node,
      "The node: GUID (0x...), LID (decimal), or name (node-name-map or description)")
      .required()
      .type_name("NODE");
  if (with_port)
    plugin::add_option(app, "-p,--port", options.port, "Port number on the node")
        .required()
        .in_range(1, 254)
        .type_name("N");
  add_poll_options(app, options);
  plugin::add_jobs_option(app, options.jobs,
                          "a port in trouble names the jobs routed through its cable (needs "
                          "STATE_DIR/routes.lft, see ibpm-routes --refresh)")
      .group("Outputs");
}

ReportSettings report_settings(const PollOptions& options,
                               const thresholds::RateThresholds& thresholds) {
  ReportSettings settings;
  settings.thresholds = &thresholds;
  settings.first_run = options.first_run;
  settings.ber = options.ber;
  settings.flap = options.flap;
  return settings;
}

std::string add_route_impact(const PortCheckOptions& options, const NodePoll& poll,
                             std::vector<plugin::Subcheck*> checks) {
  std::vector<routes::CableEnds> cables;
  std::vector<plugin::Subcheck*> hurt;
  for (std::size_t i = 0; i < poll.results.size() && i < checks.size(); ++i) {
    const PortResult& r = poll.results[i];
    if (!r.sample.answered || effective_state(*checks[i]) == plugin::State::ok) continue;
    cables.push_back({PortRef{r.target->node, r.target->port}, r.target->remote});
    hurt.push_back(checks[i]);
  }
  if (cables.empty() || !std::filesystem::exists(routes::lft_file_path(options.fabric.state_dir)))
    return "";
  try {
    // The whole fabric: the run itself may have polled with a slice of it (the node and its
    // neighbours), and routes cross the whole fabric.
    const topology::Topology whole = topology::topology_source(options.fabric)
                                         .load(topology::TopologyRefresh::discover_if_missing);
    const auto impacts =
        routes::impacts_from_state(options.fabric.state_dir, whole.fabric,
                                   poll.names ? &*poll.names : nullptr, cables, options.jobs);
    for (std::size_t k = 0; k < impacts.size(); ++k)
      hurt[k]->children.push_back({plugin::State::ok, routes::describe(impacts[k]), {}, {}});
  } catch (const std::exception& e) {
    return std::string("routes: ") + e.what();
  }
  return "";
}

NodePoll poll_node(const PortCheckOptions& options, const plugin::CommonOptions& common,
                   bool single_port) {
  const Clock::time_point start = Clock::now();
  NodePoll poll;
  poll.thresholds = thresholds::resolve_thresholds(options.thresholds);
  poll.names = NodeNameMap::load_if_named(options.fabric.node_name_map);
  const NodeNameMap* names = poll.names ? &*poll.names : nullptr;

  PollSettings settings = poll_settings(options, common, start);
  const state::PortStore store(store_options(options));
  // Opened first: a recording that cannot be used stops the check before anything is read. A
  // discovery is recorded in it, or replayed from it.
  mad::MadTap tap(options.fabric.record, options.fabric.replay, record_rotation(options.fabric));
  const topology::TopologySource source = topology::topology_source(options.fabric, &tap);
  if (tap.replaying()) settings.clock = to_epoch_seconds(tap.now());

  find_node_topology(source, options.node, names, tap, poll);
  poll_node_ports(options, settings, store, single_port, tap, poll);
  if (topology_staleness(poll.results) == Staleness::current || tap.replaying()) return poll;

  // The LID answers as another node, or not at all: learn the fabric again and poll once more.
  topology::Topology fresh = source.discover();
  // A node that only went silent is missing from the new discovery as well: keep these results
  // (unreachable) and the saved topology, which a partial discovery must not replace.
  const Node* node = find_node(fresh.fabric, names, options.node);
  if (!node) return poll;
  const Guid guid = node->guid;
  source.save(fresh.fabric);
  source.save_slice(options.node, fresh.fabric, *node);
  poll.topology = std::move(fresh);
  poll.node = poll.topology.fabric.find(guid);  // the node just resolved, by its GUID
  poll.rediscovered = true;
  if (source.cache_given()) poll.topology.origin += " (--cache was stale)";
  poll_node_ports(options, settings, store, single_port, tap, poll);
  return poll;
}

}  // namespace ibpm::poll
