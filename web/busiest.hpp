// SPDX-License-Identifier: MIT
// The busiest cables over the window: directions ranked by average utilization (then rate).
#pragma once

#include <cstddef>
#include <vector>

#include "history/link_usage.hpp"

namespace ibpm::web {

struct BusyDirection {
  std::size_t link = 0;
  const history::DirectionUsage* direction = nullptr;
};

// Measured directions, busiest first; at most `limit`.
std::vector<BusyDirection> busiest_directions(const std::vector<history::LinkUsage>& usage,
                                              std::size_t limit);

// The links of the busiest `limit` directions, each once, in that order.
std::vector<std::size_t> busiest_links(const std::vector<history::LinkUsage>& usage,
                                       std::size_t limit);

}  // namespace ibpm::web
