// SPDX-License-Identifier: MIT

#include "history/link_usage.hpp"

#include <algorithm>

#include "counters/counter.hpp"
#include "thresholds/error_rate.hpp"
#include "topology/link_speed_check.hpp"

namespace ibpm::history {

double error_rate(const PortHistory& h) {
  return ibpm::thresholds::error_rate([&](counters::Counter c) { return h.average_of(c); });
}

namespace {

// The value of `series` (one of `rows`' own) in the row that holds time t; NaN outside them.
float value_at(const PortHistory::Rows& rows, const std::vector<float>& series, std::time_t t) {
  if (rows.step <= 0 || t <= rows.start) return std::numeric_limits<float>::quiet_NaN();
  const auto row = static_cast<std::size_t>((t - rows.start + rows.step - 1) / rows.step) - 1;
  return row < series.size() ? series[row] : std::numeric_limits<float>::quiet_NaN();
}

// The direction row by row, on the sender's rows (the receiver's when the sender kept none):
// the data rate as the averages take it (sent, else received at the far end), the wait share.
void add_rows(DirectionUsage& d, const PortHistory& sender, const PortHistory& receiver,
              std::optional<double> capacity_octets_s, const UsageOptions& options) {
  const PortHistory::Rows& base = sender.rows.size() ? sender.rows : receiver.rows;
  if (base.size() == 0 || !capacity_octets_s || *capacity_octets_s <= 0) return;
  const bool sent = sender.rows.size() && sender.average_of(counters::Counter::xmit_data);
  const double tick = options.xmit_wait_tick_ns
                          ? *options.xmit_wait_tick_ns * 1e-9
                          : counters::default_xmit_wait_tick(*capacity_octets_s * 8);
  const double octets_per_word = counters::to_octets(1);
  d.rows_start = base.start;
  d.rows_step = base.step;
  d.rows.resize(base.size());
  for (std::size_t r = 0; r < base.size(); ++r) {
    DirectionRow& row = d.rows[r];
    const std::time_t end = base.start + static_cast<std::time_t>(r + 1) * base.step;
    const float words =
        sent ? sender.rows.xmit_data[r] : value_at(receiver.rows, receiver.rows.rcv_data, end);
    row.utilization = static_cast<float>(words * octets_per_word / *capacity_octets_s);
    if (&base == &sender.rows) {
      row.wait_share = static_cast<float>(sender.rows.xmit_wait[r] * tick);
      row.wait_saturated =
          r < sender.rows.xmit_wait_saturated.size() && sender.rows.xmit_wait_saturated[r];
    }
  }
}

// One direction: `from` transmits, `to` receives.
DirectionUsage direction(PortRef from, PortRef to, const PortHistory& sender,
                         const PortHistory& receiver, std::optional<double> capacity_octets_s,
                         const UsageOptions& options) {
  DirectionUsage d;
  d.from = from;
  d.to = to;
  std::optional<double> average, peak;
  if (sender.average_of(counters::Counter::xmit_data)) {
    average = sender.average_of(counters::Counter::xmit_data);
    peak = sender.peak_of(counters::Counter::xmit_data);
  } else if (receiver.average_of(counters::Counter::rcv_data)) {
    average = receiver.average_of(counters::Counter::rcv_data);
    peak = receiver.peak_of(counters::Counter::rcv_data);
  }
  if (average) {
    d.measured = true;
    d.average_octets_s = counters::to_octets(1) * *average;
    d.peak_octets_s = counters::to_octets(1) * peak.value_or(*average);
    if (capacity_octets_s && *capacity_octets_s > 0) {
      d.average_util = d.average_octets_s / *capacity_octets_s;
      d.peak_util = d.peak_octets_s / *capacity_octets_s;
    }
  }
  if (auto wait = sender.average_of(counters::Counter::xmit_wait); wait && capacity_octets_s) {
    const double tick = options.xmit_wait_tick_ns
                            ? *options.xmit_wait_tick_ns * 1e-9
                            : counters::default_xmit_wait_tick(*capacity_octets_s * 8);
    d.xmit_wait_pct = *wait * tick * 100.0;
  }
  d.errors_s = error_rate(sender);
  d.xmit_wait_saturated = sender.xmit_wait_saturated;
  add_rows(d, sender, receiver, capacity_octets_s, options);
  return d;
}

}  // namespace

std::optional<double> LinkUsage::utilization() const {
  std::optional<double> best;
  for (const DirectionUsage* d : {&a_to_b, &b_to_a})
    if (d->average_util && (!best || *d->average_util > *best)) best = d->average_util;
  return best;
}

// Each link's usage from its ends' histories, read already (HistoryReader::read_all: each file
// read once for the usage and for each port's own history): history_of(port) is the port's
// history over the window, found = false when it has none.
std::vector<LinkUsage> link_usage(const Fabric& fabric,
                                  const std::function<PortHistory(PortRef)>& history_of,
                                  const UsageOptions& options) {
  std::vector<LinkUsage> out;
  out.reserve(fabric.links().size());
  for (std::size_t i = 0; i < fabric.links().size(); ++i) {
    const Link& link = fabric.links()[i];
    LinkUsage usage;
    usage.link = i;
    topology::LinkRate rate = topology::active_rate(fabric, link);
    if (rate.width && rate.speed)
      usage.capacity_octets_s =
          static_cast<double>(link_capacity_bps(*rate.width, *rate.speed)) / 8;
    const PortHistory a = history_of(link.a);
    const PortHistory b = history_of(link.b);
    usage.a_to_b = direction(link.a, link.b, a, b, usage.capacity_octets_s, options);
    usage.b_to_a = direction(link.b, link.a, b, a, usage.capacity_octets_s, options);
    usage.errors_s = usage.a_to_b.errors_s + usage.b_to_a.errors_s;
    out.push_back(usage);
  }
  return out;
}

}  // namespace ibpm::history
