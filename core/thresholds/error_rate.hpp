// SPDX-License-Identifier: MIT
// A port's error rate: the one rule of which counters count as errors (counter_specs()'s
// `error` ones) and how they add up (their rates per second summed, a counter without a rate
// counting as 0), for a live sweep's rates and a history's averages alike.
#pragma once

#include <optional>

#include "counters/counter.hpp"

namespace ibpm::thresholds {

// `rate_of(Counter)` gives the counter's rate per second, or nullopt where there is none.
template <class RateOf>
double error_rate(RateOf&& rate_of) {
  double sum = 0;
  for (const counters::CounterSpec& s : counters::counter_specs())
    if (s.error)
      if (const std::optional<double> r = rate_of(s.id)) sum += *r;
  return sum;
}

}  // namespace ibpm::thresholds
