// SPDX-License-Identifier: MIT
// The options every reader of the fabric's counter history begins with (the analyzers and
// ibpm-web), registered in one place so they stay the same options in the same order everywhere.
#pragma once

#include "history/history_options.hpp"
#include "plugin/cli_fwd.hpp"
#include "plugin/options.hpp"
#include "plugin/report_format.hpp"

namespace ibpm::analysis {

// The saved topology (plugin::add_saved_fabric_options), then the history window
// (history::add_history_options), for the tools that draw maps (ibpm-map, ibpm-web: -t bounds
// ibpm-draw too).
void add_analyzer_options(CLI::App& app, plugin::FabricOptions& fabric,
                          history::HistoryOptions& history);

// The same, then --format, for the analyzers that print a report (ibpm-locality,
// ibpm-utilization, ibpm-congestion).
void add_analyzer_options(CLI::App& app, plugin::FabricOptions& fabric,
                          history::HistoryOptions& history, plugin::ReportFormat& format);

}  // namespace ibpm::analysis
