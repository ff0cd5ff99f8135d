// SPDX-License-Identifier: MIT
// A switch's utilization profile: what it sends up (towards the core) and down (towards the
// hosts) over time, each as per cent of the capacity of those ports together.
#pragma once

#include <string>
#include <vector>

#include "fabric/fabric.hpp"
#include "graphs/utilization_graph.hpp"
#include "history/port_history.hpp"

namespace ibpm::graphs {

struct PortGroup {
  std::string label;             // "up (18 ports)": shown as it is in the legend
  std::vector<PortRef> ports;    // the switch's ports in the group (their PortXmitData is summed)
  double capacity_octets_s = 0;  // of all of them
};

// One line per group that has ports with files. Throws std::runtime_error with librrd's reason,
// or when no group has any.
void draw_switch_traffic(const history::HistoryReader& reader, const std::vector<PortGroup>& groups,
                         const ProfileGraph& graph);

}  // namespace ibpm::graphs
