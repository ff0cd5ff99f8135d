// SPDX-License-Identifier: MIT

#include "thresholds/metrics.hpp"

#include <array>

namespace ibpm::thresholds {
namespace {

std::array<Metric, kMetricCount> make_metrics() {
  std::array<Metric, kMetricCount> metrics{};
  std::size_t i = 0;
  for (const counters::CounterSpec& s : counters::counter_specs())
    metrics[i++] = Metric{s.key, s.name, MetricKind::rate, s.name};
  metrics[i++] =
      Metric{"xmit_util", "", MetricKind::percentage, "transmitted data rate / link capacity, %"};
  metrics[i++] =
      Metric{"rcv_util", "", MetricKind::percentage, "received data rate / link capacity, %"};
  metrics[i++] = Metric{"xmit_wait_pct", "", MetricKind::percentage,
                        "share of the interval the port waited to transmit, %"};
  metrics[i++] = Metric{"symbol_ber", "", MetricKind::ratio,
                        "symbol errors / bits signalled, over each BER window"};
  metrics[i++] = Metric{"rcv_errors_ber", "", MetricKind::ratio,
                        "received packets with errors / bits signalled, over each BER window"};
  return metrics;
}

}  // namespace

std::span<const Metric, kMetricCount> threshold_metrics() {
  static const std::array<Metric, kMetricCount> kMetrics = make_metrics();
  return kMetrics;
}

std::optional<std::size_t> metric_index(std::string_view name) {
  if (name.empty()) return std::nullopt;  // percentages have an empty alias
  const auto metrics = threshold_metrics();
  for (std::size_t i = 0; i < metrics.size(); ++i)
    if (metrics[i].name == name || metrics[i].alias == name) return i;
  return std::nullopt;
}

}  // namespace ibpm::thresholds
