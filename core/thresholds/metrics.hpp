// SPDX-License-Identifier: MIT
// The metrics a threshold can name: every counter's rate, by its key ("symbol_errors") or its
// perfquery name ("SymbolErrorCounter", an alias, case-sensitive as perfquery prints it),
// three percentages derived from the counters, and the bit error ratios of the physical-layer
// error counters over fixed windows (link_quality/ber_windows.hpp).
#pragma once

#include <cstddef>
#include <optional>
#include <span>
#include <string_view>

#include "counters/counter.hpp"

namespace ibpm::thresholds {

enum class MetricKind {
  rate,        // a counter's increase per second; thresholds take a unit (/s, /min, /h)
  percentage,  // 0..100; thresholds take a plain range or one ending in '%'
  ratio,       // a bit error ratio; thresholds take a plain range ("1e-12")
};

struct Metric {
  std::string_view name;   // canonical: the counter key, or the percentage's name
  std::string_view alias;  // the perfquery name for counters, empty for percentages
  MetricKind kind;
  std::string_view meaning;  // one line for help text
};

constexpr std::size_t kMetricCount = counters::kCounterCount + 3 + 2;

// The counters in counter_specs() order (index = the Counter's value), then xmit_util,
// rcv_util and xmit_wait_pct, then symbol_ber and rcv_errors_ber.
std::span<const Metric, kMetricCount> threshold_metrics();

// The index into threshold_metrics() of a canonical name or alias; nullopt for anything else.
std::optional<std::size_t> metric_index(std::string_view name);

// The same by place, with no name to look up (a sweep judges every metric of every port).
constexpr std::size_t metric_index(counters::Counter counter) {
  return static_cast<std::size_t>(counter);
}
constexpr std::size_t kXmitUtilIndex = counters::kCounterCount;
constexpr std::size_t kRcvUtilIndex = counters::kCounterCount + 1;
constexpr std::size_t kXmitWaitPctIndex = counters::kCounterCount + 2;

}  // namespace ibpm::thresholds
