// SPDX-License-Identifier: MIT
// A port's error counters over time, per second: one line per counter asked for.
#pragma once

#include <string>
#include <vector>

#include "counters/counter.hpp"
#include "fabric/fabric.hpp"
#include "graphs/utilization_graph.hpp"
#include "history/port_history.hpp"

namespace ibpm::graphs {

// Throws std::runtime_error when the port has no file, or with librrd's reason.
void draw_port_errors(const history::HistoryReader& reader, PortRef port,
                      const std::vector<counters::Counter>& counters, const ProfileGraph& graph);

}  // namespace ibpm::graphs
