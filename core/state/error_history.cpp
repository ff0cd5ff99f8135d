// SPDX-License-Identifier: MIT

#include "state/error_history.hpp"

#include <algorithm>

namespace ibpm::state {

ErrorHistory extend(ErrorHistory history, bool continuous, double previous_time, double time,
                    const std::array<std::uint32_t, kHistoryCounterCount>& errors,
                    double keep_seconds) {
  if (!continuous || history.since <= 0 || history.since > previous_time) {
    history.intervals.clear();
    history.since = continuous ? previous_time : time;
  }
  if (!continuous) return history;
  const bool any = std::any_of(errors.begin(), errors.end(), [](std::uint32_t e) { return e > 0; });
  if (any) history.intervals.push_back({time, time - previous_time, errors});
  const double oldest = time - keep_seconds;
  std::erase_if(history.intervals, [oldest](const ErrorInterval& i) { return i.end <= oldest; });
  while (history.intervals.size() > kMaxErrorIntervals) {
    // The two oldest become one interval spanning both (the gap between them had no errors).
    ErrorInterval& first = history.intervals[0];
    const ErrorInterval& second = history.intervals[1];
    const double start = first.end - first.seconds;
    ErrorInterval merged{second.end, second.end - start, {}};
    for (std::size_t c = 0; c < kHistoryCounterCount; ++c)
      merged.errors[c] = first.errors[c] + second.errors[c];
    history.intervals.erase(history.intervals.begin(), history.intervals.begin() + 2);
    history.intervals.insert(history.intervals.begin(), merged);
  }
  // Errors before the window are gone: the history now starts where the kept part starts.
  history.since = std::max(history.since, oldest);
  return history;
}

ErrorHistory drop_after(ErrorHistory history, double time) {
  if (history.since > time) return {};
  std::erase_if(history.intervals, [time](const ErrorInterval& i) { return i.end > time; });
  return history;
}

double errors_within(const ErrorHistory& history, std::size_t index, double from, double to) {
  double total = 0;
  for (const ErrorInterval& i : history.intervals) {
    const double start = i.end - i.seconds;
    const double inside = std::min(i.end, to) - std::max(start, from);
    if (inside <= 0) continue;
    const double share = i.seconds > 0 ? std::min(1.0, inside / i.seconds) : 1.0;
    total += share * i.errors[index];
  }
  return total;
}

}  // namespace ibpm::state
