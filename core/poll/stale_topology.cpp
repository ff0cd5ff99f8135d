// SPDX-License-Identifier: MIT

#include "poll/stale_topology.hpp"

namespace ibpm::poll {

Staleness topology_staleness(const std::vector<PortResult>& results) {
  Staleness found = Staleness::current;
  for (const PortResult& r : results) {
    if (!r.sample.stale_topology(*r.target)) continue;
    if (r.sample.answered_as) return Staleness::moved;  // answered, as another node
    found = Staleness::silent;
  }
  return found;
}

}  // namespace ibpm::poll
