// SPDX-License-Identifier: MIT

#include "poll/reboot_downs.hpp"

#include "poll/far_ends.hpp"

namespace ibpm::poll {

namespace {

// The far end went away or came back from zero in this run.
bool rebooted(const PortResult& end) { return !end.sample.answered || end.rates.reset_seen != 0; }

}  // namespace

void forget_reboot_downs(std::vector<PortResult>& results) {
  const FarEnds far_ends(results);
  for (PortResult& near : results) {
    if (!near.sample.answered || near.errors.intervals.empty()) continue;
    bool reboot = near.rates.reset_seen != 0;
    if (!reboot)
      if (const PortResult* far = far_ends.of(near)) reboot = rebooted(*far);
    if (reboot) state::forget_downs(near.errors, near.record->time);
  }
}

}  // namespace ibpm::poll
