// SPDX-License-Identifier: MIT
// A sweep's per-subtree aggregates (subtree_aggregates.hpp), written once per run by the sweeps
// that write history (check_ib_fabric; ibpm-rates, which samples between them, does not), never by
// a re-poll of a few nodes.
#pragma once

#include <chrono>
#include <string>

#include "sweep/sweep.hpp"

namespace ibpm::locality {

// Writes this scope's partial sums of every subtree of the swept topology, at the middle of the
// run's reads, by `deadline` at the latest (a store that hangs must leave the run's outputs their
// time). Returns what could not be written, one line ("" when all was, or nothing was to be: a
// re-poll, no port answered, or the store failed in this run already, which the run says once).
std::string write_sweep_aggregates(const sweep::SweepOptions& options,
                                   const sweep::SweepResult& result,
                                   std::chrono::steady_clock::time_point deadline);

}  // namespace ibpm::locality
