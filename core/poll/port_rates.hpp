// SPDX-License-Identifier: MIT
// From two samples of a port to rates: every counter per second (a lower bound when the counter
// is saturated, counted from zero when someone else reset it), link utilization per direction
// and the share of the interval the port waited to transmit (PortXmitWait).
#pragma once

#include <array>
#include <optional>

#include "counters/counter.hpp"
#include "counters/optional_double.hpp"
#include "state/port_record.hpp"

namespace ibpm::poll {

// 200 bytes: one per polled port is kept for the whole sweep.
struct PortRates {
  double interval = 0;                     // seconds between the samples
  counters::CounterRates rate;             // per second; nullopt when unknown
  counters::CounterMask saturated = 0;     // at their maximum now: their rates are lower bounds
  counters::CounterMask reset_seen = 0;    // lower than before, not reset by us: counted from zero
  counters::OptionalDouble xmit_util_pct;  // PortXmitData / capacity
  counters::OptionalDouble rcv_util_pct;
  counters::OptionalDouble xmit_wait_pct;  // PortXmitWait ticks x tick / interval
  counters::OptionalDouble capacity_bps;
  bool baseline = false;  // no usable previous sample: nothing to compare with yet

  std::optional<counters::Rate> of(counters::Counter counter) const {
    return rate[static_cast<std::size_t>(counter)];
  }
};

// The counters of a reading that stand at their maximum (the width depends on `extended` for
// the data and packet counters, and on `all_extended` for every counter: state::sample_width).
counters::CounterMask at_maximum(const counters::CounterReadings& values, bool extended,
                                 bool all_extended);

// previous: the port's last sample (null: none). capacity_bps: the link's data rate (nullopt when
// down or unknown); xmit_wait_tick: seconds per PortXmitWait tick, nullopt for
// default_xmit_wait_tick(capacity).
PortRates compute_rates(const state::PortRecord* previous, const state::PortRecord& current,
                        std::optional<double> capacity_bps,
                        std::optional<double> xmit_wait_tick = std::nullopt);

}  // namespace ibpm::poll
