// SPDX-License-Identifier: MIT

#include "poll/reboot_downs.hpp"

#include "poll/far_ends.hpp"

namespace ibpm::poll {

namespace {

// The far end went away or came back from zero in this run.
bool rebooted(const PortResult& end) { return !end.sample.answered || end.rates.reset_seen != 0; }

// When the port's previous sample was taken: the start of this run's interval (its own time on a
// first sample). A little early, so that the interval that ended then is matched whatever the
// rounding of `interval`.
double interval_start(const PortResult& r) {
  if (r.rates.baseline || !(r.rates.interval > 0)) return r.record->time;
  return r.record->time - r.rates.interval - 1e-3;
}

}  // namespace

void forget_reboot_downs(std::vector<PortResult>& results) {
  const FarEnds far_ends(results);
  for (PortResult& near : results) {
    if (!near.sample.answered || near.errors.intervals.empty()) continue;
    bool reboot = near.rates.reset_seen != 0;
    if (!reboot)
      if (const PortResult* far = far_ends.of(near)) reboot = rebooted(*far);
    // This run's downs, and those of the run before: a node going down takes its link down
    // before its counters start again from zero, so a sweep that reads the far end just before
    // the link drops (or while its driver bounces the link before the power cycle) sees the
    // reboot's down one run before the reset.
    if (reboot) state::forget_downs(near.errors, interval_start(near));
  }
}

}  // namespace ibpm::poll
