// SPDX-License-Identifier: MIT
// Command-line options for rate thresholds, shared by the checks that read counters:
//
//   --warn METRIC=RANGE        repeatable; "METRIC=-" removes that level
//   --crit METRIC=RANGE        repeatable
//   --thresholds FILE          a thresholds file (threshold_file.cpp)
//   --no-default-thresholds    start from none instead of the defaults (rate_thresholds.hpp)
//
// Precedence, per metric and level: defaults < file < --warn/--crit, later options winning.
#pragma once

#include <string>
#include <vector>

#include "plugin/cli_fwd.hpp"
#include "thresholds/rate_thresholds.hpp"

namespace ibpm::thresholds {

struct RateThresholdOptions {
  std::vector<std::string> warning, critical;  // "METRIC=RANGE" as given
  std::string file;                            // empty: none
  bool no_defaults = false;
};

// Registers the options above in a "Thresholds" help group and a help footer (a footer
// callback, so a footer string set by run_plugin is kept after it) listing the syntax, the
// metrics and their defaults. A malformed --warn/--crit (no '=', unknown metric, bad range) is a
// CLI::ValidationError at parse time: "--warn: 'foo=1': unknown metric 'foo'".
void add_rate_threshold_options(CLI::App& app, RateThresholdOptions& options);

// Defaults (unless no_defaults), then the file, then --warn and --crit. Throws
// std::invalid_argument with a one-line reason for any of it, the file's errors included
// ("--warn: 'foo=1': unknown metric 'foo'", "PATH:3: unknown metric 'foo'").
RateThresholds resolve_thresholds(const RateThresholdOptions& options);

// The footer text: syntax, precedence and a table of metrics with their default thresholds.
std::string rate_thresholds_help();

}  // namespace ibpm::thresholds
