// SPDX-License-Identifier: MIT
// How the MAD engine (mad/mad_engine.hpp) runs a batch of queries, and what its runs cost: for
// the options and results that carry them without the engine itself.
#pragma once

#include <chrono>
#include <cstddef>
#include <functional>
#include <optional>

#include "mad/backoff.hpp"

namespace ibpm::mad {

struct EngineOptions {
  std::size_t window = 64;                                        // queries in flight at most
  BackoffPolicy backoff;                                          // per-try timeout and retries
  std::optional<std::chrono::steady_clock::time_point> deadline;  // nothing runs past it
  std::function<Milliseconds()> jitter = random_jitter();
};

struct EngineStats {
  std::size_t sent = 0;     // tries put on the wire
  std::size_t retries = 0;  // tries after a query's first
  std::size_t ignored = 0;  // replies matching no outstanding try
  double seconds = 0;       // wall time the runs took: the sweep's MAD phase
};

}  // namespace ibpm::mad
