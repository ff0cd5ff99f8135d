// SPDX-License-Identifier: MIT
// The options every reader of the counter history begins with.

#include "analysis/analyzer_options.hpp"

namespace ibpm::analysis {

void add_analyzer_options(CLI::App& app, plugin::FabricOptions& fabric,
                          history::HistoryOptions& history) {
  plugin::add_saved_fabric_options(app, fabric);
  history::add_history_options(app, history, history::DrawsMaps::yes);
}

void add_analyzer_options(CLI::App& app, plugin::FabricOptions& fabric,
                          history::HistoryOptions& history, plugin::ReportFormat& format) {
  plugin::add_saved_fabric_options(app, fabric);
  history::add_history_options(app, history);
  plugin::add_format_option(app, format);
}

}  // namespace ibpm::analysis
