// SPDX-License-Identifier: MIT

#include "poll/fabric_topology.hpp"

namespace ibpm::poll {

topology::TopologySource topology_source(const plugin::FabricOptions& options) {
  return topology::TopologySource(topology::TopologySourceOptions{
      options.cache, options.state_dir, options.node_name_map, options.ca, options.port});
}

}  // namespace ibpm::poll
