// SPDX-License-Identifier: MIT
// The switches of a re-poll that did not end OK, read once more a while later. When a cable goes
// down, the collector's route to the switch at its far end may cross it until the subnet
// manager's sweep moves the routes (seconds): that switch is unreachable at the first read, and
// would say nothing until the next trap or sweep. A re-poll that ends WARNING, CRITICAL or
// UNKNOWN has its LIDs queued again `delay` after it ended, once: a recheck that itself does not
// end OK is not rechecked (a link that stays down costs one more re-poll, not one every delay).
#pragma once

#include <chrono>
#include <deque>
#include <optional>
#include <set>
#include <vector>

namespace ibpm::events {

class RecheckList {
 public:
  using Clock = std::chrono::steady_clock;

  // delay 0: nothing is rechecked.
  explicit RecheckList(std::chrono::milliseconds delay) : delay_(delay) {}

  // A re-poll of `lids` ended with `exit` (the Nagios code) at `now`: the LIDs it read that were
  // not themselves a recheck are due again at now + delay when it did not end OK.
  void ended(const std::vector<unsigned>& lids, int exit, Clock::time_point now);
  // The LIDs due by `now`, each once, in the order they became due; they count as rechecks
  // when their re-poll ends.
  std::vector<unsigned> due(Clock::time_point now);
  // When the next LIDs are due; nullopt when none wait.
  std::optional<Clock::time_point> next_due() const;
  std::size_t waiting() const { return waiting_.size(); }
  std::uint64_t rechecked() const { return rechecked_; }

 private:
  struct Entry {
    Clock::time_point due;
    unsigned lid;
  };
  std::chrono::milliseconds delay_;
  std::deque<Entry> waiting_;  // in due order (one delay for all)
  std::set<unsigned> handed_;  // handed out by due(), not yet ended
  std::uint64_t rechecked_ = 0;
};

}  // namespace ibpm::events
