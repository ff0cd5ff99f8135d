// SPDX-License-Identifier: MIT
// The two ways a topology is made: a file (a libibnetdisc cache file, an ibnetdiscover dump or
// an `ibnetdiscover -p` ports report, recognised by content) or live discovery through the local
// HCA. Commands get theirs through TopologySource (topology_source.hpp), which picks between them.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "fabric/fabric.hpp"
#include "topology/ibnd_fabric.hpp"

namespace ibpm::topology {

enum class TopologyFormat { ibnd_cache, ibnetdiscover, ports_report };

struct Topology {
  Fabric fabric;
  std::vector<std::string> warnings;    // what the input had that we read around
  std::vector<std::string> incomplete;  // the warnings that mean nodes or cables may be missing
  std::string origin;                   // the file, or "discovery through mlx5_0 port 1"
  std::optional<IbndFabric> ibnd;  // set when libibnetdisc produced it (it can be cached as is)
};

TopologyFormat detect_topology_format(const std::string& path);

// Throws std::runtime_error with a one-line reason (file:line: ... for malformed dumps).
Topology load_topology_file(const std::string& path);
Topology discover_topology(const DiscoveryOptions& options);

// Saves a topology for later runs (a baseline, a shared cache): a libibnetdisc cache file when
// libibnetdisc produced it, an ibnetdiscover dump otherwise. Atomic: never a half-written file.
void save_topology(const Topology& topology, const std::string& path);

}  // namespace ibpm::topology
