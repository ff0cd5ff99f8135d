// SPDX-License-Identifier: MIT
// How the rates of a sweep are spread over the fabric's ports: one histogram per metric (every
// counter's rate, link utilization and XmitWait share), so an operator sees at a glance whether
// a few ports or many show errors or load.
//
// Rates get a bin for exactly zero, then decade bins [10^k, 10^(k+1)) from the lowest to the
// highest decade a value falls in. Percentages get ten 10 % bins; the last one, [90,100], also
// takes 100 % (and anything above, which clock skew can produce).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "poll/port_result.hpp"

namespace ibpm::products {

struct HistogramBin {
  double from = 0;  // inclusive
  double to = 0;    // exclusive, except the zero bin [0,0] and the last percentage bin [90,100]
  std::size_t count = 0;
};

struct Histogram {
  std::string metric;              // perfdata label: "symbol_errors", "xmit_util"
  std::string unit;                // "/s", "octets/s" or "%"
  std::vector<HistogramBin> bins;  // ascending; rates: the zero bin first
  std::size_t no_rate = 0;         // ports without a value: unanswered, baseline, not read
  std::size_t lower_bounds = 0;    // values (counted in their bins) from saturated counters
  bool any_nonzero = false;        // some port's value is above zero
};

// One histogram per metric, in perfdata order (the counters, then xmit_util, rcv_util,
// xmit_wait_pct).
std::vector<Histogram> rate_histograms(const std::vector<poll::PortResult>& results);

// One line per metric, bins with ports only:
//   symbol_errors /s: 0: 2580 | [1,10): 3 | [10,100): 1; no rate: 12
// only_nonzero: leave out metrics where no port has a value above zero. Empty when nothing is left.
std::string format_histograms(const std::vector<Histogram>& histograms, bool only_nonzero);

// A JSON array with every metric and every bin:
//   [{"metric":"symbol_errors","unit":"/s","bins":[{"from":0,"to":0,"count":2580},...],
//     "no_rate":12,"lower_bounds":0},...]
std::string histograms_json(const std::vector<Histogram>& histograms);

}  // namespace ibpm::products
