// SPDX-License-Identifier: MIT

#include "delegation/rendezvous.hpp"

#include <algorithm>
#include <numeric>

namespace ibpm::delegation {

std::uint64_t rendezvous_score(Guid node, unsigned shard) {
  // Both inputs mixed before they meet: GUIDs of one vendor differ only in their low bits.
  return splitmix64(splitmix64(node) ^ splitmix64(0x5348415244ULL + shard));  // "SHARD"
}

std::vector<unsigned> rendezvous_ranking(Guid node, std::vector<unsigned> shards) {
  std::vector<std::pair<std::uint64_t, unsigned>> scored;
  scored.reserve(shards.size());
  for (unsigned shard : shards) scored.emplace_back(rendezvous_score(node, shard), shard);
  std::sort(scored.begin(), scored.end(), [](const auto& a, const auto& b) {
    return a.first != b.first ? a.first > b.first : a.second < b.second;
  });
  for (std::size_t i = 0; i < scored.size(); ++i) shards[i] = scored[i].second;
  return shards;
}

std::vector<unsigned> all_shards(unsigned count) {
  std::vector<unsigned> shards(count);
  std::iota(shards.begin(), shards.end(), 1u);
  return shards;
}

}  // namespace ibpm::delegation
