// SPDX-License-Identifier: MIT
// Rendezvous (highest-random-weight) hashing of nodes onto shards. Every collector must compute
// the same split from the topology alone, so the hash is a fixed 64-bit mixer over the node GUID
// and the shard number: never std::hash (free to differ between builds), never a random seed.
#pragma once

#include <cstdint>
#include <vector>

#include "fabric/types.hpp"

namespace ibpm::delegation {

// splitmix64's output function (Steele, Lea, Flood 2014): a bijection on 64-bit values whose
// every output bit depends on every input bit.
constexpr std::uint64_t splitmix64(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

// How much `node` wants `shard`: the node goes to its highest-scoring shard when it has room.
std::uint64_t rendezvous_score(Guid node, unsigned shard);

// `shards` reordered from the node's most to its least preferred (highest score first; the
// lower shard number first on the improbable equal score).
std::vector<unsigned> rendezvous_ranking(Guid node, std::vector<unsigned> shards);

// Shards 1..count.
std::vector<unsigned> all_shards(unsigned count);

}  // namespace ibpm::delegation
