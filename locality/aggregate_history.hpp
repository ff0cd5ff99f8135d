// SPDX-License-Identifier: MIT
// The subtrees' sums over a window from the sweeps' aggregate files (subtree_aggregates.hpp),
// when they cover it; otherwise why not, and the caller reads every port's file (the truth the
// aggregates are tested against).
//
// Which scopes count: row by row, the scopes whose file has a value in that row must be one whole
// sharding, "fabric" alone or shard-1-of-N .. shard-N-of-N. A shard taken over by another
// collector keeps its scope's files; the files of an old sharding stop getting rows when its
// sweeps stop, so they never add to the rows of the new one. A row where two shardings meet, or
// where a shard has not written yet (shards sweep at their own times), is left out as a port's
// missing row is. The aggregates are used when every subtree has a file in some scope and rows
// from the window's start on (files made before the window began); else the per-port path.
#pragma once

#include <chrono>
#include <cstddef>
#include <ctime>
#include <string>
#include <vector>

#include "history/port_history.hpp"
#include "locality/subtree_aggregates.hpp"
#include "locality/traffic_locality.hpp"
#include "state/port_store.hpp"

namespace ibpm::locality {

struct AggregateHistory {
  bool used = false;
  std::string reason;         // why not used
  std::vector<SetSums> sums;  // by aggregate, when used
  std::size_t scopes = 0;     // scopes read
  std::size_t files = 0;      // files read
  std::time_t step = 0;       // the rows' step
  std::time_t covered = 0;    // seconds of the window with a whole sharding's rows (the least)
};

// The aggregates' sums over `window` (see above).
AggregateHistory read_aggregate_history(const state::PortStore& store,
                                        const std::vector<SubtreeAggregate>& aggregates,
                                        const history::Window& window,
                                        std::chrono::milliseconds timeout);

// "per-subtree aggregates (2 scopes, 14 files)" or "per-port files (aggregates not used: REASON)".
std::string describe_source(const AggregateHistory& history, bool asked);

}  // namespace ibpm::locality
