#include "poll/port_check.hpp"

#include <filesystem>
#include <map>

#include "mad/umad_port.hpp"
#include "poll/topology_slice.hpp"
#include "dump/ibnetdiscover_writer.hpp"
#include "topology/atomic_file.hpp"

namespace ibpm::poll {

namespace {

using Clock = std::chrono::steady_clock;

// An ibnetdiscover dump rather than a libibnetdisc cache file: ibpm reads a dump several times
// faster than ibnd_load_fabric reads its cache, and every check run reads it.
std::string state_cache_path(const PortCheckOptions& options) {
  return (std::filesystem::path(options.fabric.state_dir) / "topology.ibnetdiscover").string();
}

Topology discover(const PortCheckOptions& options) {
  return discover_topology(DiscoveryOptions{options.fabric.ca, options.fabric.port, 0, 0});
}

void save_state_topology(const PortCheckOptions& options, const Fabric& fabric) {
  std::filesystem::create_directories(options.fabric.state_dir);
  replace_file_with(state_cache_path(options),
                    [&](std::ostream& out) { write_ibnetdiscover(out, fabric); });
}

// --cache, else the state directory's cache, else a discovery that fills that cache.
Topology load_topology(const PortCheckOptions& options, bool force_discovery) {
  if (!force_discovery && !options.fabric.cache.empty())
    return load_topology_file(options.fabric.cache);
  const std::string cache = state_cache_path(options);
  if (!force_discovery && std::filesystem::exists(cache)) return load_topology_file(cache);
  Topology topology = discover(options);
  save_state_topology(options, topology.fabric);
  return topology;
}

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

bool any_stale(const std::vector<PortResult>& results) {
  for (const PortResult& r : results)
    if (r.sample.stale_topology(r.target)) return true;
  return false;
}

}  // namespace

void add_port_check_options(CLI::App& app, PortCheckOptions& options, bool with_port) {
  plugin::add_fabric_options(app, options.fabric);
  app.add_option("-n,--node", options.node,
                 "The node: GUID (0x...), LID (decimal), or name (node-name-map or description)")
      ->required()
      ->type_name("NODE");
  if (with_port)
    app.add_option("-p,--port", options.port, "Port number on the node")
        ->required()
        ->check(CLI::Range(1, 254))
        ->type_name("N");
  const std::string state = "State";
  app.add_option("--rrdcached", options.rrdcached,
                 "rrdcached address for the RRD writes (default: $RRDCACHED_ADDRESS when set)")
      ->type_name("ADDR")
      ->group(state);
  app.add_option("--rrd-step", options.rrd_step, "Seconds per row of newly created RRD files")
      ->check(CLI::Range(1, 3600))
      ->capture_default_str()
      ->group(state);
  app.add_option_function<std::string>(
         "--first-run",
         [&options](const std::string& text) {
           options.first_run = text == "unknown" ? plugin::State::unknown : plugin::State::ok;
         },
         "State of a run with no previous sample to compare with: ok or unknown")
      ->check(CLI::IsMember({"ok", "unknown"}))
      ->default_str("ok")
      ->group(state);
  app.add_option("--reset-counters", options.reset_percent,
                 "Clear error counters (and 32-bit data counters) at or above this % of their "
                 "maximum, e.g. 75; default: never")
      ->check(CLI::Range(1.0, 100.0))
      ->type_name("PERCENT")
      ->group(state);
  const std::string mad = "MAD";
  app.add_option("--window", options.window, "Queries in flight at most")
      ->check(CLI::Range(1, 4096))
      ->capture_default_str()
      ->group(mad);
  app.add_option("--mad-timeout", options.mad_timeout_ms,
                 "Milliseconds the first try of a query waits; retries wait longer (randomized "
                 "exponential backoff); all tries of a query within --mad-timeout x "
                 "--mad-retries, and within -t")
      ->check(CLI::Range(1, 60000))
      ->capture_default_str()
      ->group(mad);
  app.add_option("--mad-retries", options.mad_retries, "Retries of a query that timed out")
      ->check(CLI::Range(0, 20))
      ->capture_default_str()
      ->group(mad);
  app.add_option("--xmit-wait-tick", options.xmit_wait_tick_ns,
                 "Nanoseconds per PortXmitWait tick for xmit_wait_pct (default: the time the link "
                 "takes to send 4 octets)")
      ->check(CLI::PositiveNumber)
      ->type_name("NS")
      ->group(mad);
  add_rate_threshold_options(app, options.thresholds);
}

std::string describe(const mad::EngineStats& stats) {
  return "MADs: " + std::to_string(stats.sent) + " sent, " + std::to_string(stats.retries) +
         " retries, " + std::to_string(stats.ignored) + " ignored replies";
}

ReportSettings report_settings(const PortCheckOptions& options, const RateThresholds& thresholds) {
  ReportSettings settings;
  settings.thresholds = &thresholds;
  settings.first_run = options.first_run;
  return settings;
}

NodePoll poll_node(const PortCheckOptions& options, const plugin::CommonOptions& common,
                   bool single_port) {
  const Clock::time_point start = Clock::now();
  NodePoll poll;
  poll.thresholds = resolve_thresholds(options.thresholds);
  if (!options.fabric.node_name_map.empty())
    poll.names = NodeNameMap::load(options.fabric.node_name_map);
  const NodeNameMap* names = poll.names ? &*poll.names : nullptr;

  PollSettings settings;
  settings.engine.window = options.window;
  settings.engine.backoff = {mad::Milliseconds(options.mad_timeout_ms), options.mad_retries};
  // Leave a little of -t for writing the state and the output.
  if (common.timeout > 0)
    settings.engine.deadline = start + std::chrono::milliseconds(common.timeout * 1000 * 9 / 10);
  if (options.reset_percent) settings.reset_fraction = *options.reset_percent / 100.0;
  if (options.xmit_wait_tick_ns) settings.xmit_wait_tick = *options.xmit_wait_tick_ns * 1e-9;

  state::StoreOptions store_options;
  store_options.state_dir = options.fabric.state_dir;
  store_options.rrdcached = options.rrdcached;
  store_options.layout.step = std::chrono::seconds(options.rrd_step);
  const state::PortStore store(store_options);

  // Discovery opens the umad port itself, so ours is open only while polling (under
  // libumad2sim, two ports open at once in one process do not survive the first one closing).
  const SliceKey slice_key{options.fabric.state_dir, options.node,
                           options.fabric.cache.empty() ? state_cache_path(options)
                                                        : options.fabric.cache,
                           options.fabric.node_name_map};
  std::optional<Topology> slice = load_slice(slice_key);
  poll.topology = slice ? std::move(*slice) : load_topology(options, false);
  for (int pass = 0;; ++pass) {
    try {
      poll.node = &resolve_node(poll.topology.fabric, names, options.node);
    } catch (const TargetError&) {
      if (slice) {
        slice.reset();  // an odd slice: the whole topology decides
        poll.topology = load_topology(options, false);
      }
      if (!find_node(poll.topology.fabric, names, options.node) && options.fabric.cache.empty() &&
          !poll.rediscovered) {
        // The saved topology may be older than the node: learn the fabric again, once.
        poll.topology = load_topology(options, true);
        poll.rediscovered = true;
      }
      poll.node = &resolve_node(poll.topology.fabric, names, options.node);
    }
    if (!slice) save_slice(slice_key, poll.topology.fabric, *poll.node);
    const std::vector<PortTarget> targets = targets_of(options, poll, single_port);
    {
      mad::UmadPort umad(options.fabric.ca, options.fabric.port);
      mad::MadEngine engine(umad);
      poll.results = poll_ports(engine, store, targets, settings);
      poll.mad_stats.sent += engine.stats().sent;
      poll.mad_stats.retries += engine.stats().retries;
      poll.mad_stats.ignored += engine.stats().ignored;
    }
    if (pass > 0 || !any_stale(poll.results)) break;
    // The LID answers as another node, or not at all: learn the fabric again and retry once.
    {
      Topology fresh = discover(options);
      // A node that only went silent is missing from the new discovery as well: keep this pass's
      // results (unreachable) and the saved topology, which a partial discovery must not replace.
      if (!find_node(fresh.fabric, names, options.node)) break;
      save_state_topology(options, fresh.fabric);
      poll.topology = std::move(fresh);
    }
    slice.reset();
    poll.rediscovered = true;
    if (!options.fabric.cache.empty()) poll.topology.origin += " (--cache was stale)";
  }
  return poll;
}

}  // namespace ibpm::poll
