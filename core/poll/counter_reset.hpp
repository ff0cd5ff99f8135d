// SPDX-License-Identifier: MIT
// Sticky counters stop at their maximum, so a performance manager clears them before they get
// there (OpenSM's PerfMgr at 75 %). Only the counters that are close are cleared, and never the
// data and packet counters of an agent with 64-bit extended counters: those are read from the
// extended attribute, which will not fill up, and other tools may be reading them.
#pragma once

#include "counters/counter.hpp"
#include "mad/pma.hpp"

namespace ibpm::poll {

// The counters at or above `fraction` (0..1] of their maximum, each at its width in the sample
// (state::sample_width: with all_extended every counter is 64-bit).
counters::CounterMask counters_near_max(const mad::CounterValues& values, bool extended,
                                        bool all_extended, double fraction);

}  // namespace ibpm::poll
