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

Histogram percent_histogram(const std::vector<MetricValue>& values) {
  Histogram h;
  for (int i = 0; i < kPercentBins; ++i)
    h.bins.push_back(HistogramBin{i * kPercentBinWidth, (i + 1) * kPercentBinWidth, 0});
  for (const MetricValue& v : values) ++h.bins[percent_bin(v.value)].count;
  return h;
}

Histogram rate_histogram(const std::vector<MetricValue>& values) {
  Histogram h;
  h.bins.push_back(HistogramBin{0, 0, 0});
  std::vector<std::optional<int>> decades;  // each value's, found once; none for zero
  decades.reserve(values.size());
  std::optional<int> lowest, highest;
  for (const MetricValue& v : values) {
    if (v.value <= 0) {
      decades.emplace_back();
      continue;
    }
    const int k = decade_of(v.value);
    decades.emplace_back(k);
    lowest = std::min(lowest.value_or(k), k);
    highest = std::max(highest.value_or(k), k);
  }
  if (lowest)
    for (int k = *lowest; k <= *highest; ++k)
      h.bins.push_back(HistogramBin{power_of_ten(k), power_of_ten(k + 1), 0});
  for (const std::optional<int>& k : decades)
    ++h.bins[k ? static_cast<std::size_t>(*k - *lowest) + 1 : 0].count;
  return h;
}

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
  std::vector<Histogram> histograms;
  for (const Metric& metric : port_metrics()) {
    std::vector<MetricValue> values;
    std::size_t no_rate = 0;
    for (const poll::PortResult& result : results) {
      if (const auto value = metric_value(metric, result))
        values.push_back(*value);
      else
        ++no_rate;
    }
    Histogram h = metric.percent() ? percent_histogram(values) : rate_histogram(values);
    h.metric = metric.name;
    h.unit = metric.unit;
    h.no_rate = no_rate;
    h.lower_bounds = static_cast<std::size_t>(std::count_if(
        values.begin(), values.end(), [](const MetricValue& v) { return v.lower_bound; }));
    h.any_nonzero =
        std::any_of(values.begin(), values.end(), [](const MetricValue& v) { return v.value > 0; });
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
