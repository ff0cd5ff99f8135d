// SPDX-License-Identifier: MIT
// A central store against a collector's record of its ports: each port's last update in the
// store (PortStore::last_updates, rrdcached's LAST: rounded down to the file's step) judged
// against the sample the collector recorded last. The store's side of the sweep's check: which
// ports another collector (or anyone who reaches the store) updated since, which files the store
// lost, which are dated ahead of the clock. What a run does about them is the poller's.
#pragma once

#include <cstddef>
#include <ctime>
#include <optional>
#include <string>
#include <vector>

#include "fabric/types.hpp"
#include "state/port_store.hpp"

namespace ibpm::state {

// Samples the central store acknowledged and no longer holds (rrdcached killed before its
// journal reached the disk, its files restored from a backup): its last update is behind this
// collector's record. The rates go on from what the store kept; the history has a hole, said once.
struct StoreLoss {
  std::size_t ports = 0;    // files behind the record
  std::size_t missing = 0;  // of those, files the store no longer has at all
  std::time_t longest = 0;  // the largest gap, seconds

  // A port whose store holds `last` (nullopt: no file) where the record says `recorded`.
  void add(std::optional<std::time_t> last, std::time_t recorded);
  std::string describe() const;
};

// A port whose store is not as the record says.
struct StoreDifference {
  std::size_t index = 0;            // into the ports judged
  std::optional<std::time_t> last;  // the store's last update (nullopt: no file)
  // Later than the record: another collector's sample, or someone else's update.
  bool updated_since = false;
  // Later than the clock allows (kClockToleranceSeconds): why, naming the file; empty otherwise.
  std::string ahead_of_clock;
};

// ports[i]'s recorded sample time `recorded[i]` against the store's last update `last[i]` (as
// PortStore::last_updates gives them; `last` may be shorter, when the store could not say about
// the rest: those are not judged). A store behind the record is added to `loss` too.
std::vector<StoreDifference> judge_against_store(
    const PortStore& store, const std::vector<PortRef>& ports, const std::vector<double>& recorded,
    const std::vector<std::optional<std::time_t>>& last, double now, StoreLoss& loss);

}  // namespace ibpm::state
