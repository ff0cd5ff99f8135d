// SPDX-License-Identifier: MIT
// --shard K/N: this collector polls share K of a fabric split into N shares.
#pragma once

#include <string>
#include <string_view>

namespace ibpm::delegation {

// The largest N: far more collectors than any fabric needs, small enough to catch typos.
inline constexpr unsigned max_shard_count = 4096;

struct ShardSpec {
  unsigned index = 1;  // K, 1-based
  unsigned count = 1;  // N
  friend bool operator==(const ShardSpec&, const ShardSpec&) = default;
};

// "K/N" with 1 <= K <= N <= max_shard_count. Throws std::invalid_argument with a one-line
// reason, e.g. "--shard 5/4: K must be between 1 and N".
ShardSpec parse_shard(std::string_view text);

// "2/4"
std::string to_string(ShardSpec spec);

}  // namespace ibpm::delegation
