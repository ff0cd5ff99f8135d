// SPDX-License-Identifier: MIT

#include "topology/topology_source.hpp"

#include <filesystem>
#include <stdexcept>

#include "base/atomic_file.hpp"
#include "dump/ibnetdiscover_writer.hpp"
#include "layout/state_layout.hpp"
#include "topology/cache_snapshot.hpp"
#include "topology/lost_cables.hpp"
#include "topology/topology_slice.hpp"

namespace ibpm::topology {

std::string state_topology_path(const std::string& state_dir) {
  return layout::StateLayout(state_dir).topology();
}

TopologySource::TopologySource(TopologySourceOptions options, Discover discover)
    : options_(std::move(options)),
      discover_(std::move(discover)),
      file_(options_.cache.empty() ? state_topology_path(options_.state_dir) : options_.cache) {}

Topology TopologySource::load(TopologyRefresh refresh) const {
  if (refresh == TopologyRefresh::cache_or_discover)
    return cache_given() ? load_topology_file(file_) : discover();
  if (refresh != TopologyRefresh::discover_now) {
    if (cache_given()) return load_cache_file(file_, options_.state_dir);
    if (std::filesystem::exists(file_)) return with_lost_cables(load_topology_file(file_));
    if (refresh == TopologyRefresh::offline)
      throw std::runtime_error("no topology file " + file_ +
                               ": check_ib_fabric, check_ib_node or check_ib_port write it on "
                               "their first run (so does ibpm-topology --write-dump " +
                               file_ + "), or name one with --cache FILE");
  }
  // The topology this discovery replaces, with the cables it kept: those the discovery no
  // longer sees stay (lost_cables.hpp).
  std::optional<Fabric> before;
  if (!cache_given() && std::filesystem::exists(file_)) {
    try {
      before = with_lost_cables(load_topology_file(file_)).fabric;
    } catch (const std::exception&) {
      // An unreadable old topology is replaced; there is nothing to keep from it.
    }
  }
  Topology topology = discover();
  save(topology.fabric);
  if (before) {
    save_lost_cables(options_.state_dir, lost_cables(*before, topology.fabric));
    return with_lost_cables(std::move(topology));
  }
  return topology;
}

Topology TopologySource::with_lost_cables(Topology topology) const {
  const Fabric lost = load_lost_cables(options_.state_dir);
  if (const std::size_t kept = add_lost_cables(topology.fabric, lost))
    topology.warnings.push_back(std::to_string(kept) + (kept == 1 ? " cable" : " cables") +
                                " no longer discovered kept as cabled (lost cables; "
                                "check_ib_topology --write-baseline accepts the fabric as it is)");
  return topology;
}

bool TopologySource::accept_discovered(const Fabric& fabric) const {
  // A state directory the checks never used is left alone (not made: --write-baseline alone
  // must not create /var/lib/ibpm behind the package's back).
  if (cache_given() || !std::filesystem::exists(file_)) return false;
  save(fabric);
  save_lost_cables(options_.state_dir, Fabric{});
  return true;
}

Topology TopologySource::discover() const {
  return discover_(DiscoveryOptions{options_.ca, options_.port, 0, 0, options_.tap});
}

void TopologySource::save(const Fabric& fabric) const {
  std::filesystem::create_directories(options_.state_dir);
  base::replace_file_with(state_topology_path(options_.state_dir),
                          [&](std::ostream& out) { dump::write_ibnetdiscover(out, fabric); });
}

std::optional<Topology> TopologySource::load_slice(const std::string& node_text) const {
  return ibpm::topology::load_slice(
      SliceKey{options_.state_dir, node_text, file_, options_.node_name_map});
}

void TopologySource::save_slice(const std::string& node_text, const Fabric& fabric,
                                const Node& node) const {
  ibpm::topology::save_slice(SliceKey{options_.state_dir, node_text, file_, options_.node_name_map},
                             fabric, node);
}

}  // namespace ibpm::topology
