// SPDX-License-Identifier: MIT

#include "route_check/routes_source.hpp"

#include <chrono>
#include <filesystem>
#include <stdexcept>

#include "mad/mad_link.hpp"
#include "route_check/lft_reader.hpp"
#include "routes/lft_file.hpp"
#include "topology/fabric_topology.hpp"

namespace ibpm::route_check {

namespace {

std::vector<SwitchAddress> switch_addresses(const Fabric& fabric, const NodeNameMap* names) {
  std::vector<SwitchAddress> addresses;
  for (const Node& node : fabric.nodes()) {
    if (node.type != NodeType::sw) continue;
    const Port* port0 = node.port(0);
    if (!port0 || !port0->lid) continue;
    addresses.push_back({node.guid, *port0->lid, display_name(node, names)});
  }
  return addresses;
}

void read_from_fabric(const RoutesSourceOptions& options, mad::MadTap& tap, RoutesSource& source) {
  const auto addresses = switch_addresses(source.topology.fabric, source.name_map());
  if (addresses.empty()) throw std::runtime_error("the topology has no switch with a LID");
  mad::MadLink link(options.fabric.ca, options.fabric.port, tap);
  mad::EngineOptions engine_options = options.mad.engine();
  engine_options.deadline = options.deadline;
  const auto start = std::chrono::steady_clock::now();
  LftRead read = read_forwarding_tables(link.engine(), addresses, engine_options);
  source.read_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  source.switches_read = read.tables.switches.size();
  source.lft_queries = read.queries;
  for (std::string& p : read.problems) source.problems.push_back(std::move(p));
  if (read.tables.switches.empty())
    throw std::runtime_error("no switch answered for its forwarding table" +
                             (source.problems.empty() ? "" : ": " + source.problems.front()));
  read.tables.read_at =
      std::chrono::duration_cast<std::chrono::seconds>(tap.now().time_since_epoch())
          .count();  // a replay's: the recording's
  std::filesystem::create_directories(options.fabric.state_dir);
  routes::write_lft_file(source.tables_path, read.tables);
  source.tables = std::move(read.tables);
}

// Switches of the topology whose table is missing or was read at another LID.
void compare_with_topology(RoutesSource& source, bool count_missing) {
  std::size_t missing = 0, moved = 0;
  std::string example;
  for (const Node& node : source.topology.fabric.nodes()) {
    if (node.type != NodeType::sw) continue;
    const Port* port0 = node.port(0);
    const routes::SwitchTable* table = source.tables.find(node.guid);
    if (!table) {
      ++missing;
      if (example.empty()) example = display_name(node, source.name_map());
    } else if (port0 && port0->lid && *port0->lid != table->lid) {
      ++moved;
      if (example.empty()) example = display_name(node, source.name_map());
    }
  }
  if (missing && count_missing)
    source.problems.push_back(std::to_string(missing) +
                              " switches of the topology have no forwarding table (" + example +
                              "...): ibpm-routes --refresh reads them");
  if (moved)
    source.problems.push_back(std::to_string(moved) +
                              " switches have another LID than when their tables were read: "
                              "ibpm-routes --refresh reads them again");
}

}  // namespace

RoutesSource load_routes_source(const RoutesSourceOptions& options) {
  RoutesSource source;
  const bool refresh = options.tables == TableSource::fabric;
  if (!refresh && (!options.fabric.record.empty() || !options.fabric.replay.empty()))
    throw std::invalid_argument("--record and --replay go with --refresh");
  // Opened first: a recording that cannot be used stops the run before anything is read.
  mad::MadTap tap(options.fabric.record, options.fabric.replay,
                  poll::record_rotation(options.fabric));
  // A refresh discovers the topology again too, unless --cache names it, recorded with the
  // tables and replayed from the recording; a recording that holds no discovery replays on
  // --cache or the state directory's topology.
  const topology::TopologySource topology = topology::topology_source(options.fabric, &tap);
  const bool discover =
      refresh && !topology.cache_given() && (!tap.replaying() || tap.replay()->holds_discovery());
  const topology::TopologyRefresh how = discover ? topology::TopologyRefresh::discover_now
                                        : tap.replaying()
                                            ? topology::TopologyRefresh::offline
                                            : topology::TopologyRefresh::discover_if_missing;
  source.topology = topology.load(how);
  source.names = NodeNameMap::load_if_named(options.fabric.node_name_map);
  source.tables_path = routes::lft_file_path(options.fabric.state_dir);
  if (refresh)
    read_from_fabric(options, tap, source);
  else
    source.tables = routes::read_lft_file(source.tables_path);
  compare_with_topology(source, !refresh);  // a refresh names the switches it missed
  return source;
}

}  // namespace ibpm::route_check
