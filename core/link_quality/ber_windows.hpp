// SPDX-License-Identifier: MIT
// A port's bit error ratios over fixed windows ending at its latest sample (12 and 125 minutes by
// default, the windows NVIDIA's UFM judges port BER over; ibdiagnet likewise waits 125 minutes of
// up-time before it trusts one), from the error history the sample record keeps
// (state/error_history.hpp) and the bits the link signals at its active width and speed.
//
// A window the history does not cover yet is not judged: it says how much it has ("needs 125 min
// of samples, have 14").
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "counters/counter.hpp"
#include "fabric/types.hpp"
#include "link_quality/bit_error_ratio.hpp"
#include "state/error_history.hpp"

namespace ibpm::link_quality {

struct BerSettings {
  std::vector<double> windows{720, 7500};  // seconds
  double confidence = 0.95;

  double longest() const;
};

struct BerWindow {
  counters::Counter counter = counters::Counter::symbol_errors;
  double window = 0;   // seconds
  double covered = 0;  // seconds of it with continuous history
  BitErrorRatio ber;   // errors: those seen in the covered part; the ratios only when judged()

  bool judged() const { return covered >= window; }
};

// "symbol_ber", "rcv_errors_ber": the threshold metric of a counter's BER.
std::string ber_metric(counters::Counter counter);

// "30 s", "12 min", "125 min", "3 h 5 min".
std::string format_window(double seconds);

// Every kept counter over every window, windows in settings order within each counter. Empty when
// the link's rate is unknown (not active).
std::vector<BerWindow> ber_windows(const state::ErrorHistory& history, double now,
                                   std::optional<LinkWidth> width, std::optional<LinkSpeed> speed,
                                   const BerSettings& settings);

// "symbol_ber 3.2e-11 over 12 min (57 errors in 1.8e+12 bits, 95 % bounds 2.5e-11..4e-11)".
std::string describe(const BerWindow& window, double confidence);

// "symbol_ber over 125 min needs 125 min of samples, have 14".
std::string describe_coverage(const BerWindow& window);

}  // namespace ibpm::link_quality
