// SPDX-License-Identifier: MIT
// The options of the tools that read the counter history: how far back, and which rrdcached to
// flush through first.
#pragma once

#include <string>

#include "plugin/cli_fwd.hpp"

namespace ibpm::history {

// The tools that read the counter history (ibpm-locality, ibpm-utilization, ibpm-map, ibpm-web).
struct HistoryOptions {
  long window = 3600;     // --window: seconds of history, up to now
  std::string rrdcached;  // --rrdcached: read the history through this daemon
  // -t: seconds the whole read through the daemon may take (and, for the tools that draw maps,
  // the drawing of them by ibpm-draw)
  long timeout = 300;
};

// Whether the tool draws maps (ibpm-map, ibpm-web): -t bounds ibpm-draw too, and says so.
enum class DrawsMaps { no, yes };

// Registers --window SECONDS (1 s .. 400 days), --rrdcached ADDRESS and -t SECONDS.
void add_history_options(CLI::App& app, HistoryOptions& options,
                         DrawsMaps draws_maps = DrawsMaps::no);

}  // namespace ibpm::history
