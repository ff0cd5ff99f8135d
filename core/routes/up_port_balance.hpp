// SPDX-License-Identifier: MIT
// How evenly each switch spreads destinations over its up-ports (ports to a switch of a higher
// level), as check_lft_balance.pl judges routing: per switch, how many host destinations (base
// LIDs) the LFT sends out of each up-port; the spread is the most minus the fewest. A balanced
// fat tree has a spread of 0 or 1 everywhere; routes piled on one up-port show as a large one.
#pragma once

#include <cstddef>
#include <vector>

#include "levels/fabric_levels.hpp"
#include "routes/route_map.hpp"

namespace ibpm::routes {

struct UpPortLoad {
  PortNumber port = 0;
  PortRef peer;
  std::size_t destinations = 0;
};

struct SwitchBalance {
  Guid node = 0;
  int level = levels::kNoLevel;
  std::vector<UpPortLoad> up_ports;  // port order
  std::size_t fewest = 0;
  std::size_t most = 0;
  std::size_t spread() const { return most - fewest; }
};

// Every switch with a forwarding table and at least two up-ports, the largest spread first
// (then fabric order).
std::vector<SwitchBalance> up_port_balance(const RouteMap& map, const levels::FabricLevels& levels);

}  // namespace ibpm::routes
