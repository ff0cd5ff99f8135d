// SPDX-License-Identifier: MIT
// ibpm-prometheus-rules: Prometheus alerting rules for the error rates, link usage, XmitWait and
// BER thresholds the checks judge, written from the same thresholds (the built-in defaults,
// /etc/ibpm/thresholds.conf, --warn/--crit, as check_ib_fabric resolves them), so the rules and
// the checks never hold two copies. The build runs it with the defaults for the packages'
// /usr/share/ibpm/prometheus/ibpm-threshold-alerts.yml; an operator with other thresholds runs
// it with --thresholds /etc/ibpm/thresholds.conf.
//
// Rates come from the sweep's _total counters (openmetrics.hpp) over --window, which must hold
// at least two sweeps: rate() needs two samples of a counter that moves once a sweep.
#include <CLI/CLI.hpp>
#include <cmath>
#include <iostream>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <string>

#include "base/number.hpp"
#include "counters/counter.hpp"
#include "plugin/cli.hpp"
#include "thresholds/threshold_options.hpp"

namespace {

using ibpm::thresholds::MetricKind;
using ibpm::thresholds::RateRange;
using ibpm::thresholds::RateUnit;

std::string number(double value) { return ibpm::base::format_number(value); }

// PromQL that keeps the series of `expr` the range alerts (Monitoring Plugins semantics: outside
// start..end, or inside with '@').
std::string condition(const std::string& expr, const ibpm::plugin::Range& range) {
  const bool low = std::isfinite(range.start) && range.start > 0;
  const bool high = std::isfinite(range.end);
  if (range.inside) {
    std::string text = expr;
    if (std::isfinite(range.start)) text = "(" + text + ") >= " + number(range.start);
    if (high) text = "(" + text + ") <= " + number(range.end);
    return text;
  }
  if (low && high)
    return "(" + expr + ") < " + number(range.start) + " or (" + expr + ") > " + number(range.end);
  if (low) return "(" + expr + ") < " + number(range.start);
  if (high) return "(" + expr + ") > " + number(range.end);
  return "";  // alerts on nothing measurable
}

std::string unit_factor(RateUnit unit) {
  switch (unit) {
    case RateUnit::per_minute:
      return " * 60";
    case RateUnit::per_hour:
      return " * 3600";
    case RateUnit::per_second:
      break;
  }
  return "";
}

std::string camel(std::string_view key) {
  std::string out;
  bool upper = true;
  for (const char c : key) {
    if (c == '_') {
      upper = true;
      continue;
    }
    out += upper ? static_cast<char>(std::toupper(static_cast<unsigned char>(c))) : c;
    upper = false;
  }
  return out;
}

struct Rule {
  std::string alert, expr, severity, summary;
};

void print_rule(std::ostream& out, const Rule& rule) {
  out << "      - alert: " << rule.alert << "\n"
      << "        expr: " << rule.expr << "\n"
      << "        labels:\n"
      << "          severity: " << rule.severity << "\n"
      << "        annotations:\n"
      << "          summary: '" << rule.summary << "'\n";
}

// The value a metric's thresholds are compared with, as PromQL over the sweep's series, and what
// it is called in the summary. Empty for a metric the file does not carry.
struct Measure {
  std::string expr;
  std::string shown;  // how the summary shows the value
};

Measure measure(const ibpm::thresholds::Metric& metric, std::size_t index, RateUnit unit,
                const std::string& window) {
  using namespace ibpm::thresholds;
  const std::string port =
      "{{ $labels.node }}[{{ $labels.port }}] <-> {{ $labels.remote }}[{{ "
      "$labels.remote_port }}]";
  if (index < ibpm::counters::kCounterCount) {
    const auto& spec = ibpm::counters::counter_specs()[index];
    const std::string family =
        "ibpm_port_" + std::string(spec.key) + (spec.data_words ? "_bytes" : "") + "_total";
    return {"rate(" + family + "[" + window + "])" + unit_factor(unit),
            std::string(metric.name) + " {{ $value | printf \"%.3g\" }}" +
                std::string(unit_suffix(unit)) + " on " + port};
  }
  const auto utilization = [&](const char* direction) {
    return "rate(ibpm_port_" + std::string(direction) + "_data_bytes_total[" + window +
           "]) / ibpm_port_link_capacity_bytes_per_second * 100";
  };
  const std::string percent =
      std::string(metric.name) + " {{ $value | printf \"%.1f\" }} % on " + port;
  if (index == kXmitUtilIndex) return {utilization("xmit"), percent};
  if (index == kRcvUtilIndex) return {utilization("rcv"), percent};
  if (index == kXmitWaitPctIndex) return {"ibpm_port_xmit_wait_ratio * 100", percent};
  // BER: judged on the lower confidence bound, as the checks do.
  return {"ibpm_port_" + std::string(metric.name) + "_lower_bound",
          std::string(metric.name) + " lower bound {{ $value | printf \"%.2g\" }} on " + port};
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{
      "Prometheus alerting rules for the thresholds the ibpm checks judge (error rates, link "
      "utilization, XmitWait share, BER), from the same thresholds: the defaults, a thresholds "
      "file, --warn/--crit. Written to standard output as a rules file for rule_files. The "
      "packages ship it for the built-in defaults as "
      "/usr/share/ibpm/prometheus/ibpm-threshold-alerts.yml; after changing "
      "/etc/ibpm/thresholds.conf, write it again and name that file in rule_files instead:\n"
      "  ibpm-prometheus-rules --thresholds /etc/ibpm/thresholds.conf > "
      "/etc/prometheus/ibpm-threshold-alerts.yml",
      "ibpm-prometheus-rules"};
  ibpm::thresholds::RateThresholdOptions options;
  ibpm::thresholds::add_rate_threshold_options(app, options);
  std::string window = "15m";
  app.add_option("--window", window,
                 "The range rate() takes the counters over: at least two sweep intervals")
      ->capture_default_str();
  return ibpm::plugin::run_tool(app, argc, argv, [&] {
    const ibpm::thresholds::RateThresholds thresholds =
        ibpm::thresholds::resolve_thresholds(options);
    std::ostringstream out;
    out << "# Generated by ibpm-prometheus-rules from the checks' thresholds: do not edit; run "
           "it\n# again with --thresholds /etc/ibpm/thresholds.conf after changing that file.\n"
           "groups:\n"
           "  - name: ibpm-thresholds\n"
           "    rules:\n";
    const auto metrics = ibpm::thresholds::threshold_metrics();
    for (std::size_t i = 0; i < metrics.size(); ++i) {
      const auto* threshold = thresholds.find(metrics[i].name);
      if (!threshold) continue;
      for (const auto& [range, severity] :
           {std::pair{threshold->warning, "warning"}, std::pair{threshold->critical, "critical"}}) {
        if (!range) continue;
        const Measure m = measure(metrics[i], i, range->unit, window);
        const std::string expr = condition(m.expr, range->range);
        if (expr.empty()) continue;
        const std::string limit = ibpm::thresholds::format_threshold(metrics[i], range);
        print_rule(out, {"IbPort" + camel(metrics[i].name), expr, severity,
                         m.shown + " (" + severity + " " + limit + ")"});
      }
    }
    std::cout << out.str() << std::flush;
    if (!std::cout.good()) throw std::runtime_error("cannot write the rules to standard output");
  });
}
