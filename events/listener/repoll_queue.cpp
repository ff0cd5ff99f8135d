// SPDX-License-Identifier: MIT

#include "repoll_queue.hpp"

#include <algorithm>

namespace ibpm::events {

std::size_t RepollQueue::spent(Clock::time_point now) {
  while (!recent_.empty() && now - recent_.front() >= limits_.budget_window) recent_.pop_front();
  return recent_.size();
}

bool RepollQueue::add(unsigned lid, Clock::time_point now) {
  ++counts_.named;
  if (waiting_set_.contains(lid)) {
    ++counts_.coalesced;
    return true;
  }
  if (spent(now) + waiting_.size() >= limits_.budget) {
    ++counts_.dropped;
    return false;
  }
  waiting_.push_back(lid);
  waiting_set_.insert(lid);
  return true;
}

std::optional<RepollQueue::Clock::time_point> RepollQueue::next_start() const {
  if (waiting_.empty() || in_flight_) return std::nullopt;
  if (!last_start_) return Clock::time_point::min();
  return *last_start_ + limits_.min_interval;
}

std::vector<unsigned> RepollQueue::start(Clock::time_point now) {
  const std::optional<Clock::time_point> when = next_start();
  if (!when || now < *when) return {};
  const std::size_t n = std::min(waiting_.size(), limits_.max_nodes);
  std::vector<unsigned> lids(waiting_.begin(), waiting_.begin() + static_cast<std::ptrdiff_t>(n));
  waiting_.erase(waiting_.begin(), waiting_.begin() + static_cast<std::ptrdiff_t>(n));
  for (unsigned lid : lids) {
    waiting_set_.erase(lid);
    recent_.push_back(now);
  }
  last_start_ = now;
  in_flight_ = true;
  ++counts_.runs;
  counts_.polled += lids.size();
  return lids;
}

}  // namespace ibpm::events
