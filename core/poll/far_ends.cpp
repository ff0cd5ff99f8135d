// SPDX-License-Identifier: MIT

#include "poll/far_ends.hpp"

#include <algorithm>

namespace ibpm::poll {

FarEnds::FarEnds(const std::vector<PortResult>& results) : results_(results) {
  index_.reserve(results.size());
  for (std::size_t i = 0; i < results.size(); ++i)
    index_.emplace_back(key({results[i].target->node, results[i].target->port}), i);
  std::sort(index_.begin(), index_.end());
}

const PortResult* FarEnds::of(const PortResult& near) const {
  if (!near.target->remote) return nullptr;
  const std::uint64_t wanted = key(*near.target->remote);
  const auto found =
      std::lower_bound(index_.begin(), index_.end(), wanted,
                       [](const auto& entry, std::uint64_t k) { return entry.first < k; });
  return found == index_.end() || found->first != wanted ? nullptr : &results_[found->second];
}

}  // namespace ibpm::poll
