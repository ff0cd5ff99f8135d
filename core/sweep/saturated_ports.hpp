// SPDX-License-Identifier: MIT
// The ports the status line counts as saturated, named in the long output. A PMA counter at its
// maximum stops counting (sticky), so its rate is a lower bound; for the 32-bit PortXmitWait of
// agents without the 64-bit one (ibsim, older HCAs and switches), full after 0.69 s of waiting
// on 4x HDR at the real tick, it hides congestion nothing else would show. A port not OK names
// its saturated counters in its own line; these lines are for the OK ones:
//   leaf01[3] <-> spine02[1]: saturated counters (rates are lower bounds): xmit_wait; xmit_wait
//   at its maximum: waited at least 1.2 % of the last 60 s (its last change), more not counted
//   until cleared (--reset-counters)
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "plugin/result.hpp"
#include "poll/port_result.hpp"
#include "sweep/sweep_report.hpp"

namespace ibpm::sweep {

// The line of a port with a counter at its maximum (rates.saturated set).
std::string saturated_port_line(const poll::PortResult& result);

// The first `worst` OK ports with a counter at its maximum, and a line for the rest.
void add_saturated_lines(plugin::Check& check, const std::vector<PortVerdict>& verdicts,
                         std::size_t worst);

}  // namespace ibpm::sweep
