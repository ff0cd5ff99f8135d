// SPDX-License-Identifier: MIT

#include "link_quality/ber_windows.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace ibpm::link_quality {

double BerSettings::longest() const {
  return windows.empty() ? 0 : *std::max_element(windows.begin(), windows.end());
}

std::string ber_metric(counters::Counter counter) {
  // "symbol_ber" as operators say it; the others by their counter's key.
  if (counter == counters::Counter::symbol_errors) return "symbol_ber";
  return std::string(spec(counter).key) + "_ber";
}

std::string format_window(double seconds) {
  const long total = std::lround(seconds);
  if (total < 60) return std::to_string(total) + " s";
  const long minutes = total / 60;
  if (minutes < 180) return std::to_string(minutes) + " min";
  const long rest = minutes % 60;
  return std::to_string(minutes / 60) + " h" + (rest ? " " + std::to_string(rest) + " min" : "");
}

std::vector<BerWindow> ber_windows(const state::ErrorHistory& history, double now,
                                   std::optional<LinkWidth> width, std::optional<LinkSpeed> speed,
                                   const BerSettings& settings) {
  std::vector<BerWindow> result;
  if (!width || !speed || now <= 0) return result;
  const double bps = static_cast<double>(link_signalling_bps(*width, *speed));
  const double covered_total = history.since > 0 ? std::max(0.0, now - history.since) : 0;
  // The error counters of the history (the first two); its link downs are not bit errors.
  for (std::size_t c = 0; c < state::kLinkDownedIndex; ++c) {
    for (double window : settings.windows) {
      BerWindow w;
      w.counter = state::kHistoryCounters[c];
      w.window = window;
      w.covered = std::min(window, covered_total);
      const double errors = state::errors_within(history, c, now - window, now);
      // No error: the ratio is 0 and so is its lower bound; the quantile is not needed to say so.
      if (w.judged() && errors > 0)
        w.ber = bit_error_ratio(errors, bps * window, settings.confidence);
      else
        w.ber = BitErrorRatio{errors, bps * window, 0, 0, 0};
      result.push_back(w);
    }
  }
  return result;
}

std::string describe(const BerWindow& w, double confidence) {
  char errors[32];
  std::snprintf(errors, sizeof errors, "%.0f", w.ber.errors);
  std::string text = ber_metric(w.counter) + " " + format_ber(w.ber.ratio) + " over " +
                     format_window(w.window) + " (" + errors + " errors in " +
                     format_ber(w.ber.bits) + " bits";
  if (w.ber.errors > 0) {
    char level[16];
    std::snprintf(level, sizeof level, "%g", confidence * 100);
    text += ", " + std::string(level) + " % bounds " + format_ber(w.ber.lower) + ".." +
            format_ber(w.ber.upper);
  }
  return text + ")";
}

std::string describe_coverage(const BerWindow& w) {
  return ber_metric(w.counter) + " over " + format_window(w.window) + " needs " +
         format_window(w.window) + " of samples, have " + format_window(w.covered);
}

}  // namespace ibpm::link_quality
