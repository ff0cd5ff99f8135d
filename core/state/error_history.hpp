// SPDX-License-Identifier: MIT
// A port's physical-layer errors and link downs over the last couple of hours, kept in the sample
// record so a check can judge a bit error ratio over a window (12 and 125 minutes by default), and
// a cable's flapping, without reading the port's RRD file: only the sampling intervals in which
// errors rose are kept, so a clean port costs one timestamp.
//
// `since` is when the port's history became continuous (its first sample with this collector,
// or after a gap longer than the RRD heartbeat): a window that starts before it is not covered.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "counters/counter.hpp"

namespace ibpm::state {

// The counters whose errors are kept, in this order.
inline constexpr std::array<counters::Counter, 3> kHistoryCounters{counters::Counter::symbol_errors,
                                                                   counters::Counter::rcv_errors,
                                                                   counters::Counter::link_downed};
inline constexpr std::size_t kLinkDownedIndex = 2;
inline constexpr std::size_t kHistoryCounterCount = kHistoryCounters.size();

struct ErrorInterval {
  double end = 0;      // epoch seconds of the sample that closed the interval
  double seconds = 0;  // its length (from the previous sample)
  std::array<std::uint32_t, kHistoryCounterCount> errors{};

  friend bool operator==(const ErrorInterval&, const ErrorInterval&) = default;
};

struct ErrorHistory {
  double since = 0;                      // 0: no history yet
  std::vector<ErrorInterval> intervals;  // oldest first; only those with errors

  friend bool operator==(const ErrorHistory&, const ErrorHistory&) = default;
};

// At most this many intervals per port: beyond it the two oldest are merged into one.
inline constexpr std::size_t kMaxErrorIntervals = 64;

// The history after one more sampling interval (previous_time, time] with `errors` in it:
// intervals ending before `time - keep_seconds` dropped, the history started at previous_time
// when it had none. A `continuous` of false (no previous sample, or one from before a gap)
// starts the history again at `time`.
ErrorHistory extend(ErrorHistory history, bool continuous, double previous_time, double time,
                    const std::array<std::uint32_t, kHistoryCounterCount>& errors,
                    double keep_seconds);

// The history without the intervals that end after `time`, dated by a clock that has stepped
// back since: a window that ends now would pass over them, and the next interval would start
// before them. A history that began after `time` has nothing left: it is empty again.
ErrorHistory drop_after(ErrorHistory history, double time);

// Errors of counter `index` (into kHistoryCounters) in (from, to]; an interval that straddles
// `from` counts in proportion to its part inside (the errors spread evenly over it).
double errors_within(const ErrorHistory& history, std::size_t index, double from, double to);

}  // namespace ibpm::state
