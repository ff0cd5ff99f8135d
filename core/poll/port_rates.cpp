// SPDX-License-Identifier: MIT

#include "poll/port_rates.hpp"

namespace ibpm::poll {

counters::CounterMask at_maximum(const counters::CounterReadings& values, bool extended,
                                 bool all_extended) {
  counters::CounterMask mask = 0;
  for (const counters::CounterSpec& s : counters::counter_specs()) {
    const auto& value = values[static_cast<std::size_t>(s.id)];
    if (value && *value >= counters::counter_max(state::sample_width(s.id, extended, all_extended)))
      mask |= counter_bit(s.id);
  }
  return mask;
}

PortRates compute_rates(const state::PortRecord* previous, const state::PortRecord& current,
                        std::optional<double> capacity_bps, std::optional<double> xmit_wait_tick) {
  PortRates rates;
  rates.capacity_bps = capacity_bps;
  rates.saturated = at_maximum(current.raw, current.extended, current.all_extended);
  rates.baseline = !previous || !(current.time > previous->time);
  if (rates.baseline) return rates;
  rates.interval = current.time - previous->time;

  // A counter read from another attribute than last time is another counter.
  const counters::CounterMask changed = state::source_changed(*previous, current);
  for (const counters::CounterSpec& s : counters::counter_specs()) {
    const auto i = static_cast<std::size_t>(s.id);
    const auto& before = previous->raw[i];
    const auto& now = current.raw[i];
    if (!before || !now || (changed & counter_bit(s.id))) continue;
    const counters::CounterDelta delta = counters::counter_delta(
        *before, *now, state::sample_width(s.id, current.extended, current.all_extended));
    if (delta.kind == counters::DeltaKind::reset) rates.reset_seen |= counter_bit(s.id);
    rates.rate[i] = counters::rate_of(delta, rates.interval);
  }

  if (capacity_bps && *capacity_bps > 0) {
    auto percent_of_capacity = [&](counters::Counter data) -> std::optional<double> {
      const auto r = rates.of(data);
      if (!r) return std::nullopt;
      return r->per_second * 32.0 / *capacity_bps * 100.0;  // 4-octet words to bits
    };
    rates.xmit_util_pct = percent_of_capacity(counters::Counter::xmit_data);
    rates.rcv_util_pct = percent_of_capacity(counters::Counter::rcv_data);
    if (const auto wait = rates.of(counters::Counter::xmit_wait)) {
      const double tick =
          xmit_wait_tick ? *xmit_wait_tick : counters::default_xmit_wait_tick(*capacity_bps);
      rates.xmit_wait_pct = wait->per_second * tick * 100.0;
    }
  }
  return rates;
}

}  // namespace ibpm::poll
