// SPDX-License-Identifier: MIT

#include "poll/port_turn.hpp"

namespace ibpm::poll {

bool port_turn(unsigned lid, PortNumber port, std::uint64_t runs, unsigned every) {
  if (every <= 1) return true;
  // splitmix64's finalizer: LIDs run in sequence, and every bit of the phase must vary.
  std::uint64_t z = std::uint64_t{lid} ^ (static_cast<std::uint64_t>(port) << 56);
  z += 0x9e3779b97f4a7c15ULL;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  z ^= z >> 31;
  return (runs + z % every) % every == 0;
}

}  // namespace ibpm::poll
