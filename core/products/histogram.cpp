// SPDX-License-Identifier: MIT

#include "products/histogram.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <optional>
#include <vector>

#include "base/json.hpp"
#include "base/number.hpp"
#include "products/metric_values.hpp"

namespace ibpm::products {

namespace {

constexpr int kPercentBins = 10;
constexpr double kPercentBinWidth = 10;

// 10^k exactly where a double can hold it: negative powers as a quotient of exact integers.
double exact_power_of_ten(int k) { return k >= 0 ? std::pow(10.0, k) : 1.0 / std::pow(10.0, -k); }

// The same, looked up for the decades rates fall in (every port's every rate asks twice).
double power_of_ten(int k) {
  constexpr int kReach = 64;
  static const std::array<double, 2 * kReach + 1> kTable = [] {
    std::array<double, 2 * kReach + 1> table{};
    for (int i = -kReach; i <= kReach; ++i)
      table[static_cast<std::size_t>(i + kReach)] = exact_power_of_ten(i);
    return table;
  }();
  if (k < -kReach || k > kReach) return exact_power_of_ten(k);
  return kTable[static_cast<std::size_t>(k + kReach)];
}

// k with 10^k <= value < 10^(k+1), for value > 0. log10 may round across an edge (exactly 1000
// must land in [1000,10000)), so the guess is checked against the edges.
int decade_of(double value) {
  int k = static_cast<int>(std::floor(std::log10(value)));
  if (value < power_of_ten(k))
    --k;
  else if (value >= power_of_ten(k + 1))
    ++k;
  return k;
}

std::size_t percent_bin(double value) {
  const double index = std::floor(value / kPercentBinWidth);
  return static_cast<std::size_t>(std::clamp(index, 0.0, double{kPercentBins - 1}));
}

// Every decade a positive double can fall in: 10^-324 (the least subnormal) to 10^308.
constexpr int kLowestDecade = -324;
constexpr int kHighestDecade = 308;

// One metric's values counted as they are met, into the bins they fall in (no list of the
// values kept: a sweep takes every port's every metric in one pass over the results).
class BinCounts {
 public:
  explicit BinCounts(bool percent)
      : percent_(percent), counts_(percent ? kPercentBins : kHighestDecade - kLowestDecade + 1) {}

  void add(std::optional<MetricValue> value) {
    if (!value) {
      ++no_rate_;
      return;
    }
    lower_bounds_ += value->lower_bound;
    any_nonzero_ = any_nonzero_ || value->value > 0;
    if (percent_) {
      ++counts_[percent_bin(value->value)];
    } else if (value->value <= 0) {
      ++zero_;
    } else {
      const int k = std::clamp(decade_of(value->value), kLowestDecade, kHighestDecade);
      ++counts_[static_cast<std::size_t>(k - kLowestDecade)];
      lowest_ = std::min(lowest_.value_or(k), k);
      highest_ = std::max(highest_.value_or(k), k);
    }
  }

  // Percentages: the ten bins. Rates: the zero bin, then every decade from the lowest value's to
  // the highest's.
  Histogram histogram() const {
    Histogram h;
    if (percent_) {
      for (int i = 0; i < kPercentBins; ++i)
        h.bins.push_back(HistogramBin{i * kPercentBinWidth, (i + 1) * kPercentBinWidth,
                                      counts_[static_cast<std::size_t>(i)]});
    } else {
      h.bins.push_back(HistogramBin{0, 0, zero_});
      if (lowest_)
        for (int k = *lowest_; k <= *highest_; ++k)
          h.bins.push_back(HistogramBin{power_of_ten(k), power_of_ten(k + 1),
                                        counts_[static_cast<std::size_t>(k - kLowestDecade)]});
    }
    h.no_rate = no_rate_;
    h.lower_bounds = lower_bounds_;
    h.any_nonzero = any_nonzero_;
    return h;
  }

 private:
  bool percent_;
  std::vector<std::size_t> counts_;  // percent bins, or one per decade from kLowestDecade
  std::size_t zero_ = 0;
  std::optional<int> lowest_, highest_;
  std::size_t no_rate_ = 0;
  std::size_t lower_bounds_ = 0;
  bool any_nonzero_ = false;
};

// Bin edges as operators read them: "0.001" to "1000" in full, beyond that "1e4", "1e-4".
std::string format_edge(double edge) {
  if (edge == 0 || (edge >= 1e-3 && edge <= 1e3)) return base::format_number(edge);
  char text[16];
  std::snprintf(text, sizeof text, "1e%d", decade_of(edge));
  return text;
}

std::string format_bin(const HistogramBin& bin, bool last_percent_bin) {
  if (bin.from == 0 && bin.to == 0) return "0";
  return "[" + format_edge(bin.from) + "," + format_edge(bin.to) + (last_percent_bin ? "]" : ")");
}

}  // namespace

std::vector<Histogram> rate_histograms(const std::vector<poll::PortResult>& results) {
  const std::vector<Metric>& metrics = port_metrics();
  std::vector<BinCounts> counts;
  counts.reserve(metrics.size());
  for (const Metric& metric : metrics) counts.emplace_back(metric.percent());
  // One pass over the results (each port's result read once, not once per metric).
  for (const poll::PortResult& result : results)
    for (std::size_t m = 0; m < metrics.size(); ++m)
      counts[m].add(metric_value(metrics[m], result));
  std::vector<Histogram> histograms;
  histograms.reserve(metrics.size());
  for (std::size_t m = 0; m < metrics.size(); ++m) {
    Histogram h = counts[m].histogram();
    h.metric = metrics[m].name;
    h.unit = metrics[m].unit;
    histograms.push_back(std::move(h));
  }
  return histograms;
}

std::string format_histograms(const std::vector<Histogram>& histograms, bool only_nonzero) {
  std::string text;
  for (const Histogram& h : histograms) {
    if (only_nonzero && !h.any_nonzero) continue;
    const bool percent = h.unit == "%";
    std::string bins;
    for (std::size_t i = 0; i < h.bins.size(); ++i) {
      if (h.bins[i].count == 0) continue;
      if (!bins.empty()) bins += " | ";
      bins += format_bin(h.bins[i], percent && i + 1 == h.bins.size()) + ": " +
              std::to_string(h.bins[i].count);
    }
    text += h.metric + " " + h.unit + ": " + (bins.empty() ? "no values" : bins);
    if (h.no_rate) text += "; no rate: " + std::to_string(h.no_rate);
    if (h.lower_bounds) text += "; lower bounds: " + std::to_string(h.lower_bounds);
    text += '\n';
  }
  return text;
}

std::string histograms_json(const std::vector<Histogram>& histograms) {
  std::string json = "[";
  for (const Histogram& h : histograms) {
    if (json.size() > 1) json += ',';
    json += "{\"metric\":" + base::json_string(h.metric) +
            ",\"unit\":" + base::json_string(h.unit) + ",\"bins\":[";
    for (std::size_t i = 0; i < h.bins.size(); ++i) {
      if (i) json += ',';
      json += "{\"from\":" + base::json_number(h.bins[i].from) +
              ",\"to\":" + base::json_number(h.bins[i].to) +
              ",\"count\":" + std::to_string(h.bins[i].count) + "}";
    }
    json += "],\"no_rate\":" + std::to_string(h.no_rate) +
            ",\"lower_bounds\":" + std::to_string(h.lower_bounds) + "}";
  }
  return json + "]";
}

}  // namespace ibpm::products
