// SPDX-License-Identifier: MIT
// Where ibpm-routes and check_ib_routes get the fabric and forwarding tables: the topology as the
// other tools get it (--cache, else the state directory's); the tables from STATE_DIR/routes.lft,
// or, with
// --refresh, read over the fabric (every switch in parallel) and written there first. Without
// --refresh nothing touches the fabric for the tables. A refresh's MADs go through a MadLink:
// --record appends them to a recording, --replay takes the tables from one (no HCA, the topology
// from --cache or the state directory).
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "fabric/node_name_map.hpp"
#include "plugin/options.hpp"
#include "poll/poll_options.hpp"
#include "routes/forwarding_tables.hpp"
#include "topology/topology.hpp"

namespace ibpm::route_check {

enum class TableSource { state_file, fabric };

struct RoutesSourceOptions {
  plugin::FabricOptions fabric;
  TableSource tables = TableSource::state_file;
  poll::MadOptions mad;
  std::optional<std::chrono::steady_clock::time_point> deadline;
};

struct RoutesSource {
  topology::Topology topology;
  std::optional<NodeNameMap> names;
  routes::ForwardingTables tables;
  std::string tables_path;
  // Switches read or skipped by a refresh, and how long it took.
  std::size_t switches_read = 0;
  std::size_t lft_queries = 0;
  double read_seconds = 0;
  // Problems worth a warning: switches not read, tables older than the topology.
  std::vector<std::string> problems;

  const NodeNameMap* name_map() const { return names ? &*names : nullptr; }
};

// Throws with a one-line reason (no topology, no tables file, no switch read).
RoutesSource load_routes_source(const RoutesSourceOptions& options);

}  // namespace ibpm::route_check
