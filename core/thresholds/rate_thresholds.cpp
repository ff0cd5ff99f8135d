// SPDX-License-Identifier: MIT

#include "thresholds/rate_thresholds.hpp"

#include <cmath>
#include <cstdio>
#include <stdexcept>

namespace ibpm::thresholds {
namespace {

struct DefaultRow {
  std::string_view metric, warning, critical;
};

// The table in rate_thresholds.hpp; metrics not listed have none.
constexpr DefaultRow kDefaults[] = {
    {"symbol_errors", "10/h", "100/h"}, {"link_recovers", "1/h", "10/h"},
    {"rcv_errors", "10/h", "100/h"},    {"rcv_remote_phys", "100/h", "1000/h"},
    {"rcv_switch_relay", "100/h", "-"}, {"xmit_discards", "100/h", "1000/h"},
    {"xmit_constraint", "100/h", "-"},  {"rcv_constraint", "100/h", "-"},
    {"link_integrity", "1/h", "10/h"},  {"buffer_overrun", "1/h", "10/h"},
    {"vl15_dropped", "100/h", "-"},     {"xmit_wait_pct", "10", "30"},
    {"xmit_util", "90", "-"},           {"rcv_util", "90", "-"},
    {"symbol_ber", "1e-12", "1e-10"},   {"rcv_errors_ber", "1e-12", "1e-10"},
};

std::size_t index_of(std::string_view metric) {
  const auto index = metric_index(metric);
  if (!index) throw std::invalid_argument("unknown metric '" + std::string(metric) + "'");
  return *index;
}

}  // namespace

RateThresholds RateThresholds::defaults() {
  // Parsed by the same code as the operator's thresholds, once.
  static const RateThresholds kDefaultThresholds = [] {
    RateThresholds thresholds;
    for (const DefaultRow& row : kDefaults) {
      thresholds.set(row.metric, plugin::State::warning, row.warning);
      thresholds.set(row.metric, plugin::State::critical, row.critical);
    }
    return thresholds;
  }();
  return kDefaultThresholds;
}

RateThresholds RateThresholds::none() { return RateThresholds(); }

bool RateThresholds::is_metric(std::string_view name) { return metric_index(name).has_value(); }

std::vector<std::string> RateThresholds::metric_names() {
  std::vector<std::string> names;
  for (const Metric& metric : threshold_metrics()) names.emplace_back(metric.name);
  return names;
}

void RateThresholds::set(std::string_view metric, plugin::State level,
                         std::string_view range_text) {
  const std::size_t index = index_of(metric);
  if (level != plugin::State::warning && level != plugin::State::critical)
    throw std::invalid_argument("a threshold is either warning or critical");
  const Metric& info = threshold_metrics()[index];

  std::optional<RateRange> range;
  if (range_text != "-") {
    if (info.kind == MetricKind::percentage) {
      if (range_text.find('/') != std::string_view::npos)
        throw std::invalid_argument(std::string(info.name) + " is a percentage: '" +
                                    std::string(range_text) + "' cannot take a rate unit");
      range = parse_percent_range(range_text);
    } else if (info.kind == MetricKind::ratio) {
      if (range_text.find_first_of("/%") != std::string_view::npos)
        throw std::invalid_argument(std::string(info.name) + " is a ratio: '" +
                                    std::string(range_text) + "' takes a plain range (1e-12)");
      range = parse_percent_range(range_text);
    } else {
      range = parse_rate_range(range_text);
    }
  }
  MetricThreshold& target = thresholds_[index];
  (level == plugin::State::warning ? target.warning : target.critical) = range;
}

const MetricThreshold* RateThresholds::find(std::string_view metric) const {
  const auto index = metric_index(metric);
  if (!index) return nullptr;
  const MetricThreshold& threshold = thresholds_[*index];
  return threshold.warning || threshold.critical ? &threshold : nullptr;
}

plugin::State RateThresholds::evaluate(std::string_view metric, double value) const {
  return evaluate(index_of(metric), value);
}

plugin::State RateThresholds::evaluate(std::size_t index, double value) const {
  const MetricThreshold& threshold = thresholds_.at(index);
  // Percentages are stored per_second, whose conversion leaves the value as it is.
  if (threshold.critical && alerts(*threshold.critical, value)) return plugin::State::critical;
  if (threshold.warning && alerts(*threshold.warning, value)) return plugin::State::warning;
  return plugin::State::ok;
}

std::string RateThresholds::describe(std::string_view metric) const {
  return describe(index_of(metric));
}

std::string RateThresholds::describe(std::size_t index) const {
  const Metric& info = threshold_metrics()[index];
  const MetricThreshold& threshold = thresholds_.at(index);
  std::string text;
  if (threshold.warning) text = "warning " + format_threshold(info, threshold.warning);
  if (threshold.critical) {
    if (!text.empty()) text += ", ";
    text += "critical " + format_threshold(info, threshold.critical);
  }
  return text.empty() ? "no thresholds" : text;
}

std::string format_threshold(const Metric& metric, const std::optional<RateRange>& range) {
  if (!range) return "-";
  if (metric.kind == MetricKind::percentage) return plugin::to_string(range->range) + "%";
  if (metric.kind == MetricKind::ratio) {
    // "1e-12" rather than twelve zeros, when the range is the usual 0:N.
    const plugin::Range& r = range->range;
    if (!r.inside && r.start == 0 && !std::isinf(r.end)) {
      char text[32];
      std::snprintf(text, sizeof text, "%g", r.end);
      return text;
    }
    return plugin::to_string(r);
  }
  return to_string(*range);
}

}  // namespace ibpm::thresholds
