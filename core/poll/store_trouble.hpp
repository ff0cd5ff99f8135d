// SPDX-License-Identifier: MIT
// What the store did to a run as a whole, said once for the run instead of once per port: a
// store that cannot be reached or does not answer in time, and updates it refused because the
// file already held a later sample (dropped as another collector's, see PortStore::write_all).
// The ports' own states come first: a port whose sample the store did not take is judged from
// its counters and the sample record as when the store answers.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "plugin/result.hpp"

namespace ibpm::poll {

struct StoreTrouble {
  // Files named at most (the count says the rest).
  static constexpr std::size_t kNamed = 5;

  // The store failed (its first reason; "" when it did not). `unstored`: the ports whose sample
  // it did not take (PortResult::unstored); `unchecked`: the central store's check got no answer.
  std::string failure;
  std::size_t unstored = 0;
  bool unchecked = false;

  // Updates refused as overtaken: how many, and the first kNamed files with how far their last
  // update was ahead of the refused sample (seconds).
  struct Overtaken {
    std::string file;
    double ahead = 0;
  };
  std::size_t overtaken = 0;
  std::vector<Overtaken> overtaken_named;

  void fail(const std::string& reason) {
    if (failure.empty()) failure = reason;
  }
  void add_overtaken(std::string file, double ahead);
  // Another pass's trouble (a sweep's far-end pass) added to this one.
  void merge(const StoreTrouble& other);
};

// "the store did not take this run's samples (REASON): 64 ports not stored, their states judged
// from the sample record; their history has a hole", or "" when the store did not fail.
std::string describe_failure(const StoreTrouble& trouble);

// "3 updates refused: the store held a later sample of FILE (1.4 s ahead), ... (dropped as
// another collector's: anyone who reaches the store can date updates ahead of ours)", or "".
std::string describe_overtaken(const StoreTrouble& trouble);

// The store's lines in the check's long output: its failure UNKNOWN (and an explicitly set
// check.state raised to UNKNOWN at least: the history asked for was not written), the refused
// updates at `overtaken_state` (WARNING where one collector owns each port: any other writer is
// news; the state raised likewise). Perfdata samples_not_stored when the store failed and
// store_overtaken when `central` (a central store, where updates can be overtaken) or any was.
void add_store_lines(plugin::Check& check, const StoreTrouble& trouble, bool central,
                     plugin::State overtaken_state = plugin::State::ok);

}  // namespace ibpm::poll
