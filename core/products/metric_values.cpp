// SPDX-License-Identifier: MIT

#include "products/metric_values.hpp"

#include <cmath>

#include "poll/port_report.hpp"

namespace ibpm::products {

namespace {

// The counter a percentage is computed from, whose saturation makes it a lower bound too.
counters::Counter underlying_counter(PercentMetric metric) {
  switch (metric) {
    case PercentMetric::xmit_util:
      return counters::Counter::xmit_data;
    case PercentMetric::rcv_util:
      return counters::Counter::rcv_data;
    case PercentMetric::xmit_wait:
      break;
  }
  return counters::Counter::xmit_wait;
}

std::optional<double> percent_of(PercentMetric metric, const poll::PortRates& rates) {
  switch (metric) {
    case PercentMetric::xmit_util:
      return rates.xmit_util_pct;
    case PercentMetric::rcv_util:
      return rates.rcv_util_pct;
    case PercentMetric::xmit_wait:
      break;
  }
  return rates.xmit_wait_pct;
}

std::vector<Metric> make_metrics() {
  std::vector<Metric> metrics;
  for (const counters::CounterSpec& s : counters::counter_specs())
    metrics.push_back(Metric{std::string(s.key), s.data_words ? "octets/s" : "/s", s.id});
  metrics.push_back(Metric{"xmit_util", "%", PercentMetric::xmit_util});
  metrics.push_back(Metric{"rcv_util", "%", PercentMetric::rcv_util});
  metrics.push_back(Metric{"xmit_wait_pct", "%", PercentMetric::xmit_wait});
  return metrics;
}

}  // namespace

const std::vector<Metric>& port_metrics() {
  static const std::vector<Metric> kMetrics = make_metrics();
  return kMetrics;
}

std::optional<MetricValue> metric_value(const Metric& metric, const poll::PortResult& result) {
  const poll::PortRates& rates = result.rates;
  if (!result.sample.answered || rates.baseline) return std::nullopt;
  std::optional<MetricValue> value;
  if (const auto* counter = std::get_if<counters::Counter>(&metric.source)) {
    if (const auto rate = rates.of(*counter))
      value = MetricValue{poll::reported_rate(*counter, rate->per_second), rate->lower_bound};
  } else {
    const auto percent = std::get<PercentMetric>(metric.source);
    if (const auto pct = percent_of(percent, rates)) {
      const auto rate = rates.of(underlying_counter(percent));
      value = MetricValue{*pct, rate && rate->lower_bound};
    }
  }
  if (value && !std::isfinite(value->value)) return std::nullopt;
  return value;
}

}  // namespace ibpm::products
