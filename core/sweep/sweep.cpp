// SPDX-License-Identifier: MIT

#include "sweep/sweep.hpp"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <functional>
#include <set>

#include "delegation/delegation_file.hpp"
#include "mad/mad_link.hpp"
#include "plugin/add_option.hpp"
#include "poll/port_poller.hpp"
#include "poll/port_sampler.hpp"
#include "poll/stale_topology.hpp"
#include "state/port_store.hpp"
#include "sweep/node_refresh.hpp"
#include "sweep/port_join.hpp"
#include "topology/fabric_topology.hpp"
#include "topology/topology_source.hpp"

namespace ibpm::sweep {

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// The topology to sweep: --cache as it is; the state topology, discovered again once it is
// older than --rediscover-after (a failed discovery keeps the old one, and says so).
topology::Topology sweep_topology(const SweepOptions& options, mad::MadTap& tap,
                                  SweepResult& result) {
  // A discovery is recorded with the sweep's MADs, or replayed from them.
  const topology::TopologySource source = topology::topology_source(options.fabric, &tap);
  if (source.cache_given()) return source.load(topology::TopologyRefresh::offline);
  // A replay discovers as the recorded run did, when there was no topology yet (never by age:
  // the recording's clock is not the files'); a recording without a discovery has no fabric to
  // discover: the saved state topology.
  if (tap.replaying())
    return source.load(tap.replay()->holds_discovery()
                           ? topology::TopologyRefresh::discover_if_missing
                           : topology::TopologyRefresh::offline);
  std::error_code error;
  const auto written = std::filesystem::last_write_time(source.file(), error);
  if (!error && options.rediscover_after_s > 0 &&
      std::filesystem::file_time_type::clock::now() - written >
          std::chrono::seconds(options.rediscover_after_s)) {
    try {
      topology::Topology fresh = source.load(topology::TopologyRefresh::discover_now);
      result.rediscovered = true;
      result.topology_note = "topology older than " + std::to_string(options.rediscover_after_s) +
                             " s: discovered again";
      return fresh;
    } catch (const std::exception& e) {
      result.topology_note = std::string("discovery failed, swept the saved topology: ") + e.what();
    }
  }
  return source.load(topology::TopologyRefresh::discover_if_missing);
}

// The nodes asked for. In a re-poll, one the topology does not have (a trap may name a LID the
// last discovery did not see) is said in `unknown` and left out; elsewhere it is an error.
std::vector<poll::PortTarget> only_nodes(std::vector<poll::PortTarget> targets,
                                         const Fabric& fabric, const NodeNameMap* names,
                                         const SweepOptions& options, const std::set<Guid>& joined,
                                         std::vector<std::string>& unknown) {
  if (options.nodes.empty() && options.join.empty()) return targets;
  std::set<Guid> wanted = joined;
  for (const std::string& text : options.nodes) {
    try {
      wanted.insert(poll::resolve_node(fabric, names, text).guid);
    } catch (const poll::TargetError& e) {
      if (!is_repoll(options)) throw;
      unknown.push_back(std::string("--node: ") + e.what() + ": not polled");
    }
  }
  std::erase_if(targets, [&](const poll::PortTarget& t) { return !wanted.contains(t.node); });
  return targets;
}

// The ports of `mine` (this collector's share) that are among `asked`.
std::vector<poll::PortTarget> mine_among(std::vector<poll::PortTarget> mine,
                                         const std::vector<poll::PortTarget>& asked) {
  std::set<std::pair<Guid, PortNumber>> wanted;
  for (const poll::PortTarget& t : asked) wanted.emplace(t.node, t.port);
  std::erase_if(mine, [&](const poll::PortTarget& t) {
    return !wanted.contains({t.node, t.port});
  });
  return mine;
}

// This collector's share of the targets (all of them for 1/1 without a delegation file).
// Also sets the shards' loads and the nodes split across shards.
std::vector<poll::PortTarget> shard_of(const SweepOptions& options, const Fabric& fabric,
                                       const NodeNameMap* names,
                                       std::vector<poll::PortTarget> targets, SweepResult& result) {
  std::vector<std::size_t>& loads = result.shard_loads;
  const delegation::ShardSpec& shard = options.shard;
  delegation::DelegationFile file;
  if (!options.delegation_file.empty())
    file = delegation::load_delegation_file(options.delegation_file, fabric, names);
  if (shard.count == 1 && options.delegation_file.empty()) {
    loads = {targets.size()};
    return targets;
  }
  std::vector<unsigned> assignment;
  try {
    assignment = delegation::assign_shards(fabric, targets, shard.count, file, options.assign);
  } catch (const std::invalid_argument& e) {
    throw std::runtime_error(
        options.delegation_file.empty() ? e.what() : options.delegation_file + ": " + e.what());
  }
  loads = delegation::shard_loads(assignment, shard.count);
  result.split_nodes = delegation::split_nodes(targets, assignment);
  std::vector<poll::PortTarget> mine;
  for (std::size_t i = 0; i < targets.size(); ++i)
    if (assignment[i] == shard.index) mine.push_back(std::move(targets[i]));
  return mine;
}

void note_read_times(SweepResult& result) {
  for (const poll::PortResult& r : result.results) {
    if (!r.sample.answered) continue;
    result.first_read = std::min(result.first_read.value_or(r.sample.time), r.sample.time);
    result.last_read = std::max(result.last_read.value_or(r.sample.time), r.sample.time);
  }
}

// Whether the record's last PortInfo of the port says its link is not up.
bool known_down(const state::SampleRecord* record, Guid node, PortNumber port) {
  const state::PortMemory* memory = record ? record->find(node, port) : nullptr;
  return memory && memory->live && memory->live->state != PortState::active;
}

// A re-poll's switches at the far end of a link it found down, when the re-poll did not read them
// and neither end was known down before (a link that went down since the record's last read), or
// the far end was never read down since (it was unreachable: its route crossed that cable until
// the subnet manager moved it; the listener re-polls such a switch again, see recheck_list.hpp):
// the trap of a link that went down may come from one end only (OpenSM forwards at most 10 of a
// switch's repeats in 5 s, and ibsim sends some from one end), and the far end's passive result
// must say the link is down too.
std::set<Guid> far_ends_of_new_downs(const std::vector<poll::PortResult>& results,
                                     const state::SampleRecord* record) {
  std::set<Guid> polled, far_ends;
  for (const poll::PortResult& r : results) polled.insert(r.target->node);
  for (const poll::PortResult& r : results) {
    const poll::PortTarget& t = *r.target;
    if (!r.sample.live || r.sample.live->state == PortState::active) continue;
    if (!t.remote || t.remote_type != NodeType::sw || polled.contains(t.remote->node)) continue;
    if (known_down(record, t.node, t.port) && known_down(record, t.remote->node, t.remote->port))
      continue;
    far_ends.insert(t.remote->node);
  }
  return far_ends;
}

// The saved topology read again (so that the cables other checks keep as lost stay out of it),
// changed by `change` and replaced atomically; not with --cache (never rewritten). A problem is a
// note: the re-poll's results stand.
void rewrite_saved_topology(const SweepOptions& options, SweepResult& result,
                            const std::string& who, const std::function<void(Fabric&)>& change) {
  const topology::TopologySource source = topology::topology_source(options.fabric);
  if (source.cache_given()) {
    result.state_notes.push_back(who + ": " + source.file() + " (--cache) is not rewritten");
    return;
  }
  try {
    topology::Topology saved = topology::load_topology_file(source.file());
    change(saved.fabric);
    source.save(saved.fabric);
  } catch (const std::exception& e) {
    result.state_notes.push_back(who + ": the saved topology was not rewritten: " + e.what());
  }
}

// A re-poll's nodes' description and system image GUID (traps 144, 145), read from each node
// and written into the topology where they changed (node_refresh.hpp).
void refresh_nodes(const SweepOptions& options, mad::MadEngine& engine, const std::set<Guid>& nodes,
                   SweepResult& result) {
  mad::EngineOptions engine_options;
  engine_options.window = 8;
  engine_options.deadline = Clock::now() + std::chrono::seconds(2);
  const std::vector<NodeChange> changes =
      read_node_changes(engine, engine_options, result.topology.fabric, nodes);
  if (changes.empty()) return;
  for (const NodeChange& change : changes)
    if (std::string said = apply_node_change(result.topology.fabric, change); !said.empty())
      result.refreshed.push_back(std::move(said));
  rewrite_saved_topology(options, result, "node refresh", [&](Fabric& fabric) {
    for (const NodeChange& change : changes) apply_node_change(fabric, change);
  });
}

// --join: the ports learnt at the SA and added to the topology swept and to the saved one (read
// again, so that the cables other checks keep as lost stay out of it); the nodes to re-poll:
// each joined node and the switches its cables lead to.
std::set<Guid> join_ports(const SweepOptions& options, const plugin::CommonOptions& common,
                          mad::MadTap& tap, SweepResult& result) {
  std::set<Guid> repoll;
  if (options.join.empty()) return repoll;
  std::vector<Guid> guids;
  for (const std::string& text : options.join) {
    try {
      std::size_t used = 0;
      guids.push_back(std::stoull(text, &used, 0));
      if (used != text.size() || guids.back() == 0) throw std::invalid_argument(text);
    } catch (const std::exception&) {
      throw std::runtime_error("--join " + text + ": not a port GUID");
    }
  }
  if (tap.replaying()) {
    result.state_notes.push_back("--join: nothing learnt from a replay");
    return repoll;
  }
  PortJoin join;
  {
    mad::UmadPort port(options.fabric.ca, options.fabric.port);
    mad::MadEngine engine(port, tap.recorder());
    mad::EngineOptions engine_options;
    engine_options.window = 8;
    if (common.timeout)
      engine_options.deadline = Clock::now() + std::chrono::seconds(common.timeout) / 4;
    join = learn_ports(engine, engine_options, port.sm_lid(), result.topology.fabric, guids);
    poll::accumulate(result.mad_stats, engine.stats());
  }
  for (std::string& note : join.notes) result.state_notes.push_back("--join: " + note);
  if (join.joined.empty()) return repoll;
  for (const JoinedNode& joined : join.joined) {
    if (!add_joined(result.topology.fabric, joined)) continue;
    result.joined.push_back(describe_joined(result.topology.fabric, joined, result.name_map()));
    repoll.insert(joined.node.guid);
    for (const auto& cable : joined.cables) repoll.insert(cable.second.node);
  }
  rewrite_saved_topology(options, result, "--join", [&](Fabric& fabric) {
    for (const JoinedNode& joined : join.joined) add_joined(fabric, joined);
  });
  return repoll;
}

}  // namespace

void add_sweep_options(CLI::App& app, SweepOptions& options) {
  const std::string group = "Sweep";
  plugin::add_option_function(
      app, "--type",
      [&options](const std::string& text) { options.types = parse_node_filter(text); },
      "Nodes whose cabled ports are polled: all, switches or cas")
      .show_default("all")
      .one_of({"all", "switches", "switch", "cas", "ca"})
      .group(group);
  plugin::add_option_function(
      app, "--shard",
      [&options](const std::string& text) { options.shard = delegation::parse_shard(text); },
      "Poll only share K of N of the fabric's ports (every collector computes the same split "
      "from the topology; shares 1..N cover every port once)")
      .type_name("K/N")
      .group(group);
  plugin::add_delegation_option(
      app, options.delegation_file,
      "Delegation file: pins of switches or ports to shards, collectors' HCAs")
      .type_name("FILE")
      .group(group);
  plugin::add_assign_option(
      app,
      [&options](const std::string& text) {
        options.assign =
            text == "nearest" ? delegation::AssignMode::nearest : delegation::AssignMode::even;
      },
      "How unpinned nodes are split: even (ports spread evenly, stable when switches come "
      "and go) or nearest (each node to the collector fewest hops away; collectors named in "
      "the delegation file)")
      .group(group);
  plugin::add_option(
      app, "--port-info-every", options.port_info_every,
      "Read the PortInfo (link state, width, speed) of a port whose counters show no "
      "link change (LinkDowned, LinkErrorRecovery) only every N sweeps, spread over the "
      "sweeps; ports that were not Active are read every sweep (1: every port, every "
      "sweep)")
      .in_range(1, 1000)
      .show_default()
      .type_name("N")
      .group(group);
  plugin::add_option(
      app, "--store-check-every", options.store_check_every,
      "With a central store (--rrdcached HOST:PORT): check that no one else updated "
      "a port's file since this collector's last sample only every N sweeps, spread "
      "over the sweeps, and for at least 8 ports a sweep; when one of them was updated "
      "by someone else, every port is checked in that sweep (a collector that had the "
      "ports meanwhile, or a store that lost its journal, is seen at once; a forged "
      "update of one file within N sweeps; 1: every port, every sweep)")
      .in_range(1, 1000)
      .show_default()
      .type_name("N")
      .group(group);
  plugin::add_option(app, "--rediscover-after", options.rediscover_after_s,
                     "Discover the fabric again when the saved topology is older than this many "
                     "seconds (0: never; not with --cache)")
      .in_range(0, 365 * 86400)
      .show_default()
      .type_name("SECONDS")
      .group(group);
}

bool is_repoll(const SweepOptions& options) {
  return options.repoll && (!options.nodes.empty() || !options.join.empty());
}

void add_repoll_option(CLI::App& app, SweepOptions& options) {
  options.repoll = true;  // the nodes of this command are re-polls (ibpm-rates' are not)
  plugin::add_option(
      app, "--node", options.nodes,
      "Re-poll only this node's ports (GUID, LID or name; repeatable) beside the sweeps, as "
      "ibpm-events does for the switch a trap names: every port's PortInfo read (and the "
      "switch at the far end of a link found newly down), the samples kept in "
      "STATE_DIR/samples/nodes.rec, no RRD file or summary written, the series of the ports "
      "read replaced in the --openmetrics file (the other ports' kept); events and passive "
      "results go where the sweep's go")
      .type_name("NODE")
      .group("Sweep");
  plugin::add_option(
      app, "--join", options.join,
      "A port that came into service (trap 64) and the saved topology lacks (port GUID; "
      "repeatable), as ibpm-events asks: its node and cables learnt at the SA (NodeRecord, "
      "LinkRecords) and from its PortInfo, added to the saved topology (the next sweep polls it), "
      "said once as an event, and re-polled with the switch it is cabled to")
      .type_name("GUID")
      .group("Sweep");
  plugin::add_flag(app, "--all-counters", options.all_counters,
                   "With --node: read every port's counters. Without it a re-poll reads every "
                   "port's PortInfo and the counters only of the ports whose link changed since "
                   "the last run that read them, or that were not reported OK; the others are OK "
                   "as reported then (a trap says a link changed; the sweeps keep the rates)")
      .group("Sweep");
}

std::string sweep_scope(const SweepOptions& options) {
  return is_repoll(options) ? "nodes" : sweeps_scope(options);
}

std::string sweeps_scope(const SweepOptions& options) {
  if (options.shard.count == 1 && options.delegation_file.empty()) return "fabric";
  return "shard-" + std::to_string(options.shard.index) + "-of-" +
         std::to_string(options.shard.count);
}

SweepResult run_sweep(const SweepOptions& options, const plugin::CommonOptions& common) {
  const Clock::time_point start = Clock::now();
  SweepResult result;
  result.started = poll::to_epoch_seconds(std::chrono::system_clock::now());
  result.thresholds = thresholds::resolve_thresholds(options.thresholds);
  result.names = NodeNameMap::load_if_named(options.fabric.node_name_map);

  poll::PollSettings settings = poll::poll_settings(options, common, start);
  settings.probe_nodes_first = true;
  if (options.clear_counters) settings.reset_fraction = 0.0;
  settings.record_name = sweep_scope(options);
  settings.port_info_every = is_repoll(options) ? 1 : options.port_info_every;
  if (is_repoll(options) && !options.all_counters) {
    settings.port_info_first = true;
    settings.sweep_record_name = sweeps_scope(options);
  }
  settings.store_check_every = options.store_check_every;
  settings.write_history = !is_repoll(options);
  const state::PortStore store(poll::store_options(options));
  result.central_store = store.central_store();
  // Opened before anything else: a recording that cannot be used stops the sweep at once.
  mad::MadTap tap(options.fabric.record, options.fabric.replay,
                  {.max_size = options.fabric.record_max_size,
                   .keep = options.fabric.record_keep,
                   .max_age = options.fabric.record_max_age});
  if (tap.replaying()) {
    // The run as recorded: its summary, spool results and samples carry the recording's time.
    settings.clock = poll::to_epoch_seconds(tap.now());
    result.started = *settings.clock;
  }

  result.topology = sweep_topology(options, tap, result);
  // libibnetdisc's own copy of the fabric (about 400 bytes a port) is not needed once the fabric
  // is ours: the sweep saves the topology from the fabric.
  result.topology.ibnd.reset();
  // The ports --join names, and the switches they are cabled to: re-polled with the rest.
  const std::set<Guid> joined = join_ports(options, common, tap, result);
  // A re-poll's second pass: the ports of the switches at the far end of links it found down.
  std::vector<poll::PortTarget> far_end_targets;
  for (int pass = 0;; ++pass) {
    const Fabric& fabric = result.topology.fabric;
    std::vector<std::string> unknown;
    std::vector<poll::PortTarget> targets = std::move(far_end_targets);
    const bool far_end_pass = !targets.empty();
    if (!far_end_pass) {
      FabricTargets all = fabric_port_targets(fabric, result.name_map(), options.types);
      result.without_lid = std::move(all.without_lid);
      const bool some_nodes = !options.nodes.empty() || !options.join.empty();
      const std::vector<poll::PortTarget> asked =
          some_nodes ? only_nodes(all.targets, fabric, result.name_map(), options, joined, unknown)
                     : std::vector<poll::PortTarget>{};
      result.fabric_ports = some_nodes ? asked.size() : all.targets.size();
      // The shards are assigned over the whole fabric's ports, as the sweeps assign them, and
      // only then narrowed to the nodes asked (assigned among themselves, a re-poll's few nodes
      // would fall to other collectors than the sweeps give them).
      targets = shard_of(options, fabric, result.name_map(), std::move(all.targets), result);
      if (some_nodes) targets = mine_among(std::move(targets), asked);
      if (targets.empty() && !unknown.empty()) throw std::runtime_error(unknown.front());
      if (targets.empty() && !asked.empty())
        throw std::runtime_error("shard " + std::to_string(options.shard.index) + "/" +
                                 std::to_string(options.shard.count) +
                                 " holds none of the ports asked: another collector's");
      if (targets.empty() && options.nodes.empty() && !options.join.empty())
        throw std::runtime_error(result.state_notes.empty() ? "--join: nothing new to learn"
                                                            : result.state_notes.back());
      if (targets.empty())
        throw std::runtime_error(result.fabric_ports == 0
                                     ? "no cabled ports to poll in " + result.topology.origin
                                     : "shard " + std::to_string(options.shard.index) + "/" +
                                           std::to_string(options.shard.count) + " has no ports");
    }

    settings.known_nodes.clear();
    for (const Node& node : fabric.nodes()) settings.known_nodes.push_back(node.guid);
    const Clock::time_point poll_start = Clock::now();
    {
      // Open only while polling: a discovery opens its own (see port_check.cpp).
      mad::MadLink link(options.fabric.ca, options.fabric.port, tap);
      std::set<Guid> polled_nodes;
      if (is_repoll(options) && !far_end_pass && !tap.replaying())
        for (const poll::PortTarget& t : targets) polled_nodes.insert(t.node);
      poll::PollRun run = poll::poll_ports(link.engine(), store, std::move(targets), settings);
      if (!polled_nodes.empty()) refresh_nodes(options, link.engine(), polled_nodes, result);
      poll::accumulate(result.mad_stats, link.engine().stats());
      if (far_end_pass) {
        // Its ports join the first pass's, and its record (loaded after the first pass saved its
        // samples) takes every port's reported state.
        for (poll::PortResult& r : run.results) result.results.push_back(std::move(r));
        for (std::string& note : run.notes) result.state_notes.push_back(std::move(note));
        result.store.merge(run.store);
        result.pending = std::move(run.pending);
        result.poll_duration += seconds_since(poll_start);
        break;
      }
      result.results = std::move(run.results);
      result.state_notes = std::move(run.notes);
      for (std::string& note : unknown) result.state_notes.push_back(std::move(note));
      result.from_rrd = run.from_rrd;
      result.store_checked = run.store_checked;
      result.store = std::move(run.store);
      result.pending = std::move(run.pending);
    }
    result.poll_duration = seconds_since(poll_start);
    if (is_repoll(options)) {
      const std::set<Guid> far_ends =
          far_ends_of_new_downs(result.results, result.pending.record.get());
      if (far_ends.empty()) break;
      FabricTargets all = fabric_port_targets(fabric, result.name_map(), options.types);
      SweepResult far_shard;  // (this pass's shard loads and split nodes are the first's)
      far_end_targets =
          shard_of(options, fabric, result.name_map(), std::move(all.targets), far_shard);
      std::erase_if(far_end_targets,
                    [&](const poll::PortTarget& t) { return !far_ends.contains(t.node); });
      if (far_end_targets.empty()) break;  // another collector's nodes
      poll::save_record(result.pending, result.results);
      continue;
    }
    if (pass > 0 || !options.fabric.cache.empty() || tap.replaying() ||
        poll::topology_staleness(result.results) != poll::Staleness::moved)
      break;
    // Ports answered as other nodes were not written; learn the fabric and sweep once more
    // (this pass's record saved first: its locks would stand in the next pass's way).
    poll::save_record(result.pending, result.results);
    result.topology = topology::topology_source(options.fabric, &tap)
                          .load(topology::TopologyRefresh::discover_now);
    result.rediscovered = true;
    result.topology_note = "a LID answered as another node: discovered again";
  }
  note_read_times(result);
  result.duration = seconds_since(start);
  return result;
}

}  // namespace ibpm::sweep
