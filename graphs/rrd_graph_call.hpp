// SPDX-License-Identifier: MIT
// What every RRD graph of the history shares: the image format by extension, escaping for the
// text librrd parses (paths in DEFs, names in legends), and the call of rrd_graph_v.
#pragma once

#include <string>
#include <vector>

#include "graphs/utilization_graph.hpp"

namespace ibpm::graphs::detail {

bool file_exists(const std::string& path);

// "graph OUTPUT --imgformat .. --start .. --end .. --width .. --height .. --title .. --slope-mode"
std::vector<std::string> graph_head(const ProfileGraph& graph, const std::string& vertical_label);

// A path in a DEF: librrd splits DEFs at ':'.
std::string def_path(const std::string& path);

// Text librrd draws (a title): valid UTF-8 (Pango warns about anything else), controls as blanks.
std::string graph_text(const std::string& text);

// A fabric name in a legend: valid UTF-8, ':' escaped; '\' (formatting codes) and control
// characters replaced.
std::string legend_text(const std::string& text);

// Throws std::runtime_error "OUTPUT: librrd's reason".
void run_graph(std::vector<std::string> args, const std::string& output);

}  // namespace ibpm::graphs::detail
