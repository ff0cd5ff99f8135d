// SPDX-License-Identifier: MIT
// Whether a poll's answers say the topology it polled with is out of date: the one judgement the
// node checks and the sweep both take before they discover the fabric again.
#pragma once

#include <vector>

#include "poll/port_result.hpp"

namespace ibpm::poll {

enum class Staleness {
  current,  // every LID answered as the node the topology names there (or was cut short)
  silent,   // some LID did not answer at all: the node is gone, or its LID moved
  moved,    // some LID answered as another node: the topology is out of date
};

// The strongest sign among the results: moved over silent over current. A node check discovers
// again on either sign (it polls one node, so silence may be a LID that moved); the sweep only on
// moved (a dead node is reported as unreachable, and the topology check tells whether it left).
Staleness topology_staleness(const std::vector<PortResult>& results);

}  // namespace ibpm::poll
