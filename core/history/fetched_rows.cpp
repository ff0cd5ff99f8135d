// SPDX-License-Identifier: MIT

#include "history/fetched_rows.hpp"

#include <cmath>

#include "state/rrd_layout.hpp"

namespace ibpm::history {

namespace {

// Whether the row's sample had PortXmitWait at its maximum: the saturated gauge's bit. A row
// consolidated from samples that differ holds no whole mask and says nothing.
bool xmit_wait_saturated(const FetchedRows& rows, std::size_t row) {
  const double mask = rows.value(row, state::source_index(state::Gauge::saturated));
  if (!std::isfinite(mask) || mask < 0 || mask > 4294967295.0 || mask != std::floor(mask))
    return false;
  return (static_cast<std::uint32_t>(mask) & counters::counter_bit(counters::Counter::xmit_wait)) !=
         0;
}

// The rows analyses judge one by one: the data and wait rates, and where the wait counter sat
// at its maximum.
PortHistory::Rows kept_rows(const FetchedRows& average) {
  PortHistory::Rows kept;
  kept.start = average.start;
  kept.step = static_cast<std::time_t>(average.step);
  const std::size_t rows = average.rows();
  auto series = [&](counters::Counter c, std::vector<float>& out) {
    out.resize(rows);
    for (std::size_t r = 0; r < rows; ++r)
      out[r] = static_cast<float>(average.value(r, state::source_index(c)));
  };
  series(counters::Counter::xmit_data, kept.xmit_data);
  series(counters::Counter::rcv_data, kept.rcv_data);
  series(counters::Counter::xmit_wait, kept.xmit_wait);
  for (std::size_t r = 0; r < rows; ++r)
    if (xmit_wait_saturated(average, r)) {
      kept.xmit_wait_saturated.resize(rows);
      kept.xmit_wait_saturated[r] = true;
    }
  return kept;
}

}  // namespace

PortHistory history_from(const FetchedRows& average, const FetchedRows* peak, bool keep_rows) {
  PortHistory history;
  const std::size_t rows = average.rows();
  history.step = static_cast<std::time_t>(average.step);
  for (std::size_t r = 0; r < rows && !history.xmit_wait_saturated; ++r)
    history.xmit_wait_saturated = xmit_wait_saturated(average, r);
  if (keep_rows) history.rows = kept_rows(average);
  // A row is covered when its data rate is known (every counter of a row is known or none).
  const std::size_t data = state::source_index(counters::Counter::xmit_data);
  for (std::size_t r = 0; r < rows; ++r)
    if (!std::isnan(average.value(r, data))) history.covered += history.step;
  for (std::size_t c = 0; c < counters::kCounterCount; ++c) {
    const std::size_t source = state::source_index(static_cast<counters::Counter>(c));
    double sum = 0;
    std::size_t n = 0;
    for (std::size_t r = 0; r < rows; ++r) {
      const double v = average.value(r, source);
      if (std::isnan(v)) continue;
      sum += v;
      ++n;
    }
    if (n > 0) {
      history.average[c] = sum / static_cast<double>(n);
      history.found = true;
    }
    if (!peak) continue;
    std::optional<double> top;
    for (std::size_t r = 0; r < peak->rows(); ++r) {
      const double v = peak->value(r, source);
      if (!std::isnan(v) && (!top || v > *top)) top = v;
    }
    history.peak[c] = top;
  }
  return history;
}

}  // namespace ibpm::history
