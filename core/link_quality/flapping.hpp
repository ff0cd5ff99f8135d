// SPDX-License-Identifier: MIT
// Flapping cables: a link that went down and came back hangs MPI and NCCL jobs although every
// single sample looks fine. A cable flaps when its link went down `count` times within `window`
// seconds (LinkDowned increments, from the error history both ends keep in the sample record);
// the state holds until the cable has been clean for `recovery` seconds.
//
// Both ends count the same downs: the cable's count over a window is the larger of its ends'.
// Downs in an interval where the far end did not answer, or came back with its counters reset
// (a reboot), are the far node going away, not a flap: the caller leaves them out.
#pragma once

#include <optional>
#include <string>

#include "plugin/state.hpp"
#include "state/error_history.hpp"

namespace ibpm::link_quality {

struct FlapSettings {
  int count = 3;           // downs within the window that make a flap
  double window = 3600;    // seconds
  double recovery = 3600;  // clean seconds before the state clears
  plugin::State between_switches = plugin::State::critical;
  plugin::State to_host = plugin::State::warning;

  double history_needed() const { return window + recovery; }
};

struct FlapStatus {
  bool flapping = false;
  int downs = 0;     // the most downs within one window, over the recovery period
  double first = 0;  // epoch seconds of the first and the last down of that streak
  double last = 0;
};

// From the two ends' histories (`far` may be null: one end polled), at time `now`.
FlapStatus flap_status(const state::ErrorHistory& near, const state::ErrorHistory* far, double now,
                       const FlapSettings& settings);

// "flapping: went down 3 times in 60 min, from 12:01:07 to 12:09:45 UTC (held until clean for
// 60 min)".
std::string describe(const FlapStatus& status, const FlapSettings& settings);

}  // namespace ibpm::link_quality
