// SPDX-License-Identifier: MIT

#include "link_quality/flapping.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include "base/number.hpp"
#include "link_quality/ber_windows.hpp"

namespace ibpm::link_quality {

namespace {

double downs_within(const state::ErrorHistory& near, const state::ErrorHistory* far, double from,
                    double to) {
  const double a = state::errors_within(near, state::kLinkDownedIndex, from, to);
  const double b = far ? state::errors_within(*far, state::kLinkDownedIndex, from, to) : 0;
  return std::max(a, b);
}

}  // namespace

FlapStatus flap_status(const state::ErrorHistory& near, const state::ErrorHistory* far, double now,
                       const FlapSettings& settings) {
  // The times a down was seen (the end of its interval), within the recovery period: a window
  // ending at any of them with `count` downs keeps the cable flapping until `recovery` later.
  std::vector<double> downs;
  for (const state::ErrorHistory* h : {&near, far})
    if (h)
      for (const state::ErrorInterval& i : h->intervals)
        if (i.errors[state::kLinkDownedIndex] > 0 && i.end > now - settings.recovery &&
            i.end <= now)
          downs.push_back(i.end);
  std::sort(downs.begin(), downs.end());
  FlapStatus status;
  for (double at : downs) {
    const double count = downs_within(near, far, at - settings.window, at);
    const int rounded = static_cast<int>(std::lround(count));
    if (rounded < status.downs) continue;
    status.downs = rounded;
    status.last = at;
    status.flapping = rounded >= settings.count;
  }
  if (status.downs > 0) {
    // The streak's first down: the earliest interval with a down within the window before it.
    status.first = status.last;
    for (const state::ErrorHistory* h : {&near, far})
      if (h)
        for (const state::ErrorInterval& i : h->intervals)
          if (i.errors[state::kLinkDownedIndex] > 0 && i.end > status.last - settings.window)
            status.first = std::min(status.first, i.end);
  }
  return status;
}

std::string describe(const FlapStatus& status, const FlapSettings& settings) {
  std::string text = "flapping: went down " + std::to_string(status.downs) + " times in " +
                     format_window(settings.window);
  if (status.first > 0)
    text += ", from " + base::format_utc(status.first, "%H:%M:%S") + " to " +
            base::format_utc(status.last, "%H:%M:%S") + " UTC";
  return text + " (held until clean for " + format_window(settings.recovery) + ")";
}

}  // namespace ibpm::link_quality
