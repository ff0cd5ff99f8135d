// SPDX-License-Identifier: MIT

#include "poll/far_ends.hpp"

namespace ibpm::poll {

FarEnds::FarEnds(const std::vector<PortResult>& results) : results_(results) {
  index_.reserve(results.size());
  for (std::size_t i = 0; i < results.size(); ++i)
    index_.emplace(key({results[i].target->node, results[i].target->port}), i);
}

const PortResult* FarEnds::of(const PortResult& near) const {
  if (!near.target->remote) return nullptr;
  const auto found = index_.find(key(*near.target->remote));
  return found == index_.end() ? nullptr : &results_[found->second];
}

}  // namespace ibpm::poll
