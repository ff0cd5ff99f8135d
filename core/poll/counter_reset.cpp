// SPDX-License-Identifier: MIT

#include "poll/counter_reset.hpp"

#include "state/port_record.hpp"

namespace ibpm::poll {

counters::CounterMask counters_near_max(const mad::CounterValues& values, bool extended,
                                        bool all_extended, double fraction) {
  counters::CounterMask mask = 0;
  for (const counters::CounterSpec& s : counters::counter_specs()) {
    const auto& value = values[static_cast<std::size_t>(s.id)];
    if (!value) continue;
    if ((extended || all_extended) && (counters::kDataCounterMask & counter_bit(s.id))) continue;
    const double max = static_cast<double>(
        counters::counter_max(state::sample_width(s.id, extended, all_extended)));
    if (static_cast<double>(*value) >= fraction * max) mask |= counter_bit(s.id);
  }
  return mask;
}

}  // namespace ibpm::poll
