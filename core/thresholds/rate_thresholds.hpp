// SPDX-License-Identifier: MIT
// Warning and critical thresholds per metric (metrics.hpp): error-counter rates such as
// "symbol_errors above 10 an hour", and the utilization and wait percentages.
//
// Defaults (defaults(); "-" is none). Error rates are per hour because a healthy link sees a
// few errors a day, not a steady stream. link_downed has none: a cable's downs are judged as
// flapping (link_quality/flapping.hpp), once per cable, not as a rate on each end.
//
//   metric             warning   critical
//   symbol_errors      10/h      100/h
//   link_recovers      1/h       10/h
//   rcv_errors         10/h      100/h
//   rcv_remote_phys    100/h     1000/h
//   rcv_switch_relay   100/h     -
//   xmit_discards      100/h     1000/h
//   xmit_constraint    100/h     -
//   rcv_constraint     100/h     -
//   link_integrity     1/h       10/h
//   buffer_overrun     1/h       10/h
//   vl15_dropped       100/h     -
//   xmit_wait_pct      10        30
//   xmit_util          90        -
//   rcv_util           90        -
//   symbol_ber         1e-12     1e-10
//   rcv_errors_ber     1e-12     1e-10
//   link_downed: none (flapping, above); xmit_wait, xmit_data, rcv_data, xmit_pkts, rcv_pkts: none
//   (traffic is not an error; its level is judged by the percentages)
//
// The BER thresholds apply to every BER window and are compared with the ratio's lower confidence
// bound (link_quality/bit_error_ratio.hpp); 1e-12 is the bit error ratio the InfiniBand
// Architecture Specification asks of every link, 1e-10 a hundred times that.
//
// Sources override each other per metric, never as a whole: see threshold_options.hpp.
#pragma once

#include <array>
#include <istream>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "plugin/state.hpp"
#include "thresholds/metrics.hpp"
#include "thresholds/rate_range.hpp"

namespace ibpm::thresholds {

struct MetricThreshold {
  std::optional<RateRange> warning, critical;

  friend bool operator==(const MetricThreshold&, const MetricThreshold&) = default;
};

class RateThresholds {
 public:
  RateThresholds() = default;  // no thresholds, as none()

  static RateThresholds defaults();  // the table above
  static RateThresholds none();

  // A canonical name, a perfquery alias or a percentage metric.
  static bool is_metric(std::string_view name);
  // Canonical names: the counters in counter_specs() order, then xmit_util, rcv_util,
  // xmit_wait_pct.
  static std::vector<std::string> metric_names();

  // Sets one level (State::warning or State::critical) of a metric, named by key or alias, from
  // a rate range (rate_range.hpp) or, for a percentage, a plain range or one ending in '%'.
  // "-" clears that level. Throws std::invalid_argument for an unknown metric, another level,
  // a bad range or a rate unit on a percentage; nothing changes then.
  void set(std::string_view metric, plugin::State level, std::string_view range_text);

  // A thresholds file merged over what is set, per metric (see threshold_file.cpp for the
  // format). All or nothing: on error nothing changes. Throws std::runtime_error
  // "PATH:LINE: reason" for a bad line and "PATH: cannot read ..." when it cannot be read.
  void load_file(const std::string& path);
  // The same from a stream; `origin` takes the place of PATH in errors.
  void load_stream(std::istream& in, const std::string& origin);

  // The metric's thresholds; nullptr when it has none (or is not a metric).
  const MetricThreshold* find(std::string_view metric) const;

  // CRITICAL when the critical range alerts, else WARNING when the warning range alerts, else
  // OK (also when the metric has no thresholds). `value` is the rate per second (converted into
  // each range's unit before comparing), or the percentage for a percentage metric. NaN alerts
  // any range that is set, as plugin::Range::alerts does.
  //
  // A rate from a saturated counter (Rate::lower_bound) is evaluated on its bound: the true rate
  // is at least that. An alert for "above N" is then certain, but OK only means the bound is
  // fine; callers should show such a rate as a bound (">= 12/h"). Throws std::invalid_argument
  // for a name that is not a metric, so a typo in a check cannot pass as OK.
  plugin::State evaluate(std::string_view metric, double value) const;
  // The same for the metric at `index` in threshold_metrics() (below kMetricCount).
  plugin::State evaluate(std::size_t index, double value) const;

  // For help and verbose output: "warning 10/h, critical 100/h", "warning 90%",
  // "critical 1/h", or "no thresholds". Throws std::invalid_argument for a non-metric.
  std::string describe(std::string_view metric) const;
  std::string describe(std::size_t index) const;

 private:
  std::array<MetricThreshold, kMetricCount> thresholds_{};
};

// One level's range as written in help and describe(): "10/h" for rates, "90%" for percentages,
// "-" when absent.
std::string format_threshold(const Metric& metric, const std::optional<RateRange>& range);

}  // namespace ibpm::thresholds
