// SPDX-License-Identifier: MIT

#include "thresholds/threshold_options.hpp"

#include <algorithm>
#include <functional>
#include <stdexcept>
#include <string>

#include "plugin/add_option.hpp"

namespace ibpm::thresholds {
namespace {

std::string_view option_name(plugin::State level) {
  return level == plugin::State::warning ? "--warn" : "--crit";
}

// Applies one "METRIC=RANGE". Throws std::invalid_argument with the reason, without the option.
void apply(RateThresholds& thresholds, plugin::State level, const std::string& assignment) {
  const auto equals = assignment.find('=');
  if (equals == std::string::npos) throw std::invalid_argument("expected METRIC=RANGE");
  thresholds.set(std::string_view(assignment).substr(0, equals), level,
                 std::string_view(assignment).substr(equals + 1));
}

// The same message whether CLI11 reports it ("--warn: " + this) or resolve_thresholds does.
std::string reason(const std::string& assignment, const std::exception& e) {
  return "'" + assignment + "': " + e.what();
}

// The check of one --warn or --crit value.
std::function<std::string(const std::string&)> assignment_check(plugin::State level) {
  return [level](const std::string& assignment) {
    try {
      RateThresholds scratch;
      apply(scratch, level, assignment);
      return std::string();
    } catch (const std::invalid_argument& e) {
      return reason(assignment, e);
    }
  };
}

}  // namespace

void add_rate_threshold_options(CLI::App& app, RateThresholdOptions& options) {
  const std::string group = "Thresholds";
  plugin::add_option(app, "--warn", options.warning,
                     "WARNING when METRIC's rate alerts RANGE (repeatable; METRIC=- for none)")
      .type_name("METRIC=RANGE")
      .one_value_each()  // one assignment per --warn, so positionals are never eaten
      .check(assignment_check(plugin::State::warning))
      .group(group);
  plugin::add_option(app, "--crit", options.critical,
                     "CRITICAL when METRIC's rate alerts RANGE (repeatable; METRIC=- for none)")
      .type_name("METRIC=RANGE")
      .one_value_each()
      .check(assignment_check(plugin::State::critical))
      .group(group);
  plugin::add_option(app, "--thresholds", options.file,
                     "Thresholds file: lines of METRIC WARNING CRITICAL ('-' for none)")
      .type_name("FILE")
      .group(group);
  plugin::add_flag(app, "--no-default-thresholds", options.no_defaults,
                   "Only the thresholds given by --thresholds, --warn and --crit")
      .group(group);
  plugin::set_footer(app, [] { return rate_thresholds_help(); });
}

RateThresholds resolve_thresholds(const RateThresholdOptions& options) {
  RateThresholds thresholds =
      options.no_defaults ? RateThresholds::none() : RateThresholds::defaults();
  if (!options.file.empty()) {
    try {
      thresholds.load_file(options.file);
    } catch (const std::runtime_error& e) {
      throw std::invalid_argument(e.what());
    }
  }
  for (const plugin::State level : {plugin::State::warning, plugin::State::critical}) {
    for (const std::string& assignment :
         level == plugin::State::warning ? options.warning : options.critical) {
      try {
        apply(thresholds, level, assignment);
      } catch (const std::invalid_argument& e) {
        throw std::invalid_argument(std::string(option_name(level)) + ": " + reason(assignment, e));
      }
    }
  }
  return thresholds;
}

std::string rate_thresholds_help() {
  std::string text =
      "Rate thresholds: --warn/--crit METRIC=RANGE, where RANGE is a threshold range followed by\n"
      "/s, /min or /h (default /s) for both ends: symbol_errors=10/h alerts above ten an hour.\n"
      "Percentages (xmit_util, rcv_util, xmit_wait_pct) take a plain range or one ending in %.\n"
      "Bit error ratios (symbol_ber, rcv_errors_ber) take a plain range (1e-12), compared with\n"
      "the ratio's lower confidence bound over each --ber-windows window.\n"
      "Precedence per metric: defaults < --thresholds FILE < --warn/--crit. Perfquery counter\n"
      "names (SymbolErrorCounter, ...) are accepted as metrics too.\n"
      "\n"
      "  metric            warning   critical\n";
  const RateThresholds defaults = RateThresholds::defaults();
  for (const Metric& metric : threshold_metrics()) {
    const MetricThreshold* threshold = defaults.find(metric.name);
    const MetricThreshold none;
    const MetricThreshold& shown = threshold ? *threshold : none;
    std::string row = "  " + std::string(metric.name);
    row.resize(std::max<std::size_t>(row.size() + 1, 20), ' ');
    row += format_threshold(metric, shown.warning);
    row.resize(std::max<std::size_t>(row.size() + 1, 30), ' ');
    row += format_threshold(metric, shown.critical);
    if (metric.kind != MetricKind::rate) {
      row.resize(std::max<std::size_t>(row.size() + 1, 40), ' ');
      row += metric.meaning;
    }
    text += row + "\n";
  }
  // CLI11 joins this and the footer string with one '\n': the line end left here makes the
  // blank line that separates the table from run_plugin's footer.
  return text;
}

}  // namespace ibpm::thresholds
