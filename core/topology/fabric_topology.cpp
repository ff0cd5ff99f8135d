// SPDX-License-Identifier: MIT

#include "topology/fabric_topology.hpp"

namespace ibpm::topology {

TopologySource topology_source(const plugin::FabricOptions& options, mad::MadTap* tap) {
  return TopologySource(TopologySourceOptions{
      options.cache, options.state_dir, options.node_name_map, options.ca, options.port, tap});
}

}  // namespace ibpm::topology
