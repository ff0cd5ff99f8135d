// SPDX-License-Identifier: MIT

#include "recheck_list.hpp"

#include <algorithm>

namespace ibpm::events {

void RecheckList::ended(const std::vector<unsigned>& lids, int exit, Clock::time_point now) {
  for (unsigned lid : lids) {
    const bool was_recheck = handed_.erase(lid) > 0;
    if (exit == 0 || was_recheck || delay_.count() == 0) continue;
    const bool waiting = std::any_of(waiting_.begin(), waiting_.end(),
                                     [lid](const Entry& e) { return e.lid == lid; });
    if (!waiting) waiting_.push_back({now + delay_, lid});
  }
}

std::vector<unsigned> RecheckList::due(Clock::time_point now) {
  std::vector<unsigned> lids;
  while (!waiting_.empty() && waiting_.front().due <= now) {
    lids.push_back(waiting_.front().lid);
    handed_.insert(waiting_.front().lid);
    waiting_.pop_front();
  }
  rechecked_ += lids.size();
  return lids;
}

std::optional<RecheckList::Clock::time_point> RecheckList::next_due() const {
  if (waiting_.empty()) return std::nullopt;
  return waiting_.front().due;
}

}  // namespace ibpm::events
