// SPDX-License-Identifier: MIT
// The one place a command gets its topology from: --cache FILE when given (never rewritten; a
// libibnetdisc cache is read through a copy of its fabric kept in the state directory, see
// cache_snapshot.hpp), else STATE_DIR/topology.ibnetdiscover, which a discovery writes; and per
// node, the slice of it a node check keeps. The caller says how fresh it must be: offline (a file
// or an error, never the fabric), the file or a discovery when there is none, a discovery now, or
// --cache else a discovery that is not kept.
#pragma once

#include <functional>
#include <optional>
#include <string>

#include "fabric/fabric.hpp"
#include "mad/mad_tap_fwd.hpp"
#include "topology/topology.hpp"

namespace ibpm::topology {

enum class TopologyRefresh {
  offline,              // the file; none is an error saying how to make one
  discover_if_missing,  // the file; none: a discovery, saved as the state topology
  discover_now,         // a discovery, saved as the state topology (--cache is not read)
  cache_or_discover,    // --cache when given, else a discovery saved nowhere (commands that only
                        // look at the fabric, or compare it, leave the state topology alone)
};

// Every member has an initializer, so a command names only those it uses ({.cache = ...,
// .state_dir = ...} for one that never discovers) without -Wmissing-field-initializers.
struct TopologySourceOptions {
  std::string cache{};          // --cache FILE, may be empty
  std::string state_dir{};      // where the state topology and the slices live
  std::string node_name_map{};  // a slice is stale once this file changes; may be empty
  std::string ca{};             // discovery through this HCA (empty: the first one)
  int port = 0;                 // and this port (0: the first active one)
  mad::MadTap* tap = nullptr;   // --record / --replay: a discovery is recorded or replayed
};

// STATE_DIR/topology.ibnetdiscover. An ibnetdiscover dump rather than a libibnetdisc cache file:
// ibpm reads a dump several times faster than ibnd_load_fabric reads its cache, and every check
// run reads it.
std::string state_topology_path(const std::string& state_dir);

class TopologySource {
 public:
  using Discover = std::function<Topology(const DiscoveryOptions&)>;

  // `discover` stands in for libibnetdisc (tests).
  explicit TopologySource(TopologySourceOptions options, Discover discover = discover_topology);

  bool cache_given() const { return !options_.cache.empty(); }
  // The file the topology is read from: --cache, else the state topology.
  const std::string& file() const { return file_; }

  // Throws std::runtime_error with a one-line reason.
  Topology load(TopologyRefresh refresh) const;

  // A discovery through the HCA, saved nowhere.
  Topology discover() const;
  // Replaces the state topology (atomically).
  void save(const Fabric& fabric) const;
  // Replaces the state topology and forgets the lost cables (lost_cables.hpp): the operator
  // accepts the fabric as discovered. Only where the checks keep a state topology already
  // (false, and nothing written, otherwise).
  bool accept_discovered(const Fabric& fabric) const;

  // The slice kept for NODE (as the operator wrote it) while it is still valid: cut from file()
  // as it is now, with the same node-name-map.
  std::optional<Topology> load_slice(const std::string& node_text) const;
  // Best effort: a slice that cannot be written is only a slower next run.
  void save_slice(const std::string& node_text, const Fabric& fabric, const Node& node) const;

 private:
  // The state topology with the cables earlier discoveries lost added back.
  Topology with_lost_cables(Topology topology) const;

  TopologySourceOptions options_;
  Discover discover_;
  std::string file_;
};

}  // namespace ibpm::topology
