// SPDX-License-Identifier: MIT
// The far end of each cable among one run's results: the rules that look at both ends of a cable
// (a reboot at either end, a flap reported once per cable) find it here.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "poll/port_result.hpp"

namespace ibpm::poll {

class FarEnds {
 public:
  // Indexes `results`, which must outlive this object and keep their places.
  explicit FarEnds(const std::vector<PortResult>& results);

  // The result at the other end of `near`'s cable, or null when the run did not poll it.
  const PortResult* of(const PortResult& near) const;

 private:
  static std::uint64_t key(PortRef ref) { return ref.node * 257 + ref.port; }

  const std::vector<PortResult>& results_;
  // (key, index into results_) sorted by key: one allocation for the run, not one per port.
  std::vector<std::pair<std::uint64_t, std::size_t>> index_;
};

}  // namespace ibpm::poll
