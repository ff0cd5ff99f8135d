// SPDX-License-Identifier: MIT

#include "repoll_queue.hpp"

#include <algorithm>

namespace ibpm::events {

std::size_t RepollQueue::spent(Clock::time_point now) {
  while (!recent_.empty() && now - recent_.front() >= limits_.budget_window) recent_.pop_front();
  return recent_.size();
}

RepollQueue::Added RepollQueue::add(unsigned lid, Clock::time_point now) {
  ++counts_.named;
  std::deque<Clock::time_point>& named = named_[lid];
  while (!named.empty() && now - named.front() >= limits_.settle) named.pop_front();
  named.push_back(now);
  if (waiting_set_.contains(lid)) {
    ++counts_.coalesced;
    return Added::coalesced;
  }
  if (spent(now) + waiting_.size() >= limits_.budget) {
    ++counts_.dropped;
    return Added::dropped;
  }
  waiting_.push_back(lid);
  waiting_set_.insert(lid);
  return Added::queued;
}

bool RepollQueue::stormy(unsigned lid) const {
  const auto named = named_.find(lid);
  return named != named_.end() && named->second.size() >= limits_.storm_names;
}

RepollQueue::Clock::time_point RepollQueue::ready_at(unsigned lid) const {
  Clock::time_point ready = Clock::time_point::min();
  if (const auto polled = last_polled_.find(lid); polled != last_polled_.end())
    ready = polled->second + limits_.min_interval;
  if (stormy(lid)) ready = std::max(ready, named_.at(lid).back() + limits_.settle);
  return ready;
}

std::optional<RepollQueue::Clock::time_point> RepollQueue::next_start() const {
  if (in_flight_ || waiting_.empty()) return std::nullopt;
  Clock::time_point first = Clock::time_point::max();
  for (unsigned lid : waiting_) first = std::min(first, ready_at(lid));
  return first;
}

std::vector<unsigned> RepollQueue::start(Clock::time_point now) {
  const std::optional<Clock::time_point> when = next_start();
  if (!when || now < *when) return {};
  std::vector<unsigned> lids;
  for (auto it = waiting_.begin(); it != waiting_.end() && lids.size() < limits_.max_nodes;) {
    if (ready_at(*it) > now) {
      ++it;
      continue;
    }
    const unsigned lid = *it;
    lids.push_back(lid);
    it = waiting_.erase(it);
    waiting_set_.erase(lid);
    counts_.settled += stormy(lid);
    named_.erase(lid);  // a storm after this read is a new one
    recent_.push_back(now);
    last_polled_[lid] = now;
  }
  in_flight_ = true;
  ++counts_.runs;
  counts_.polled += lids.size();
  return lids;
}

}  // namespace ibpm::events
