// SPDX-License-Identifier: MIT

#include "port_locator.hpp"

#include <system_error>

#include "fabric/fabric.hpp"
#include "topology/topology.hpp"

namespace ibpm::events {

namespace {

// A switch's LID: its port 0's (every port of a switch answers at it).
std::optional<unsigned> switch_lid_of(const Node& node) {
  if (node.type != NodeType::sw) return std::nullopt;
  for (const Port& port : node.ports)
    if (port.present && port.lid) return static_cast<unsigned>(*port.lid);
  return std::nullopt;
}

}  // namespace

void PortLocator::reload_if_changed() {
  std::error_code error;
  const auto written = std::filesystem::last_write_time(path_, error);
  if (error) {
    problem_ = path_ + ": " + error.message();
    return;
  }
  if (loaded_ && *loaded_ == written) return;
  try {
    const topology::Topology topology = topology::load_topology_file(path_);
    const Fabric& fabric = topology.fabric;
    switch_of_port_.clear();
    for (const Node& node : fabric.nodes()) {
      const std::optional<unsigned> own = switch_lid_of(node);
      for (const Port& port : node.ports) {
        if (!port.present || !port.guid) continue;
        if (own) {
          switch_of_port_[*port.guid] = *own;
          continue;
        }
        const std::optional<PortRef> far = fabric.remote({node.guid, port.number});
        if (!far) continue;
        if (const Node* peer = fabric.find(far->node))
          if (const std::optional<unsigned> lid = switch_lid_of(*peer))
            switch_of_port_[*port.guid] = *lid;
      }
    }
    loaded_ = written;
    problem_.clear();
  } catch (const std::exception& e) {
    problem_ = e.what();
  }
}

std::optional<unsigned> PortLocator::switch_lid(Guid port_guid) {
  reload_if_changed();
  const auto found = switch_of_port_.find(port_guid);
  if (found == switch_of_port_.end()) return std::nullopt;
  return found->second;
}

}  // namespace ibpm::events
