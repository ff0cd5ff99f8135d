// SPDX-License-Identifier: MIT
// The per-port metrics of a sweep in the units perfdata reports them: every counter's rate (per
// second; the data counters in octets per second), link utilization per direction and the share
// of time the port waited to transmit, in percent.
#pragma once

#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "counters/counter.hpp"
#include "poll/port_result.hpp"

namespace ibpm::products {

enum class PercentMetric { xmit_util, rcv_util, xmit_wait };

struct Metric {
  std::string name;  // perfdata label: "symbol_errors", "xmit_data", "xmit_util", "xmit_wait_pct"
  std::string unit;  // "/s", "octets/s" or "%"
  std::variant<counters::Counter, PercentMetric> source;

  bool percent() const { return std::holds_alternative<PercentMetric>(source); }
};

struct MetricValue {
  double value = 0;
  bool lower_bound = false;  // from a saturated counter: the true value is at least this
};

// The counters in table order, then xmit_util, rcv_util, xmit_wait_pct.
const std::vector<Metric>& port_metrics();

// The metric's value for a polled port; nullopt when the port has none (unanswered, collecting
// its baseline, the counter not read, the link's capacity unknown, or not a finite number).
std::optional<MetricValue> metric_value(const Metric& metric, const poll::PortResult& result);

}  // namespace ibpm::products
