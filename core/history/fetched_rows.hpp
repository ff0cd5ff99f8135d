// SPDX-License-Identifier: MIT
// What the rows of a port's RRD archives (state/archive_rows.hpp: read from the file or asked of
// rrdcached) say of the port over a window: its average and peak rates and how much of the
// window they cover.
#pragma once

#include "history/port_history.hpp"
#include "state/archive_rows.hpp"

namespace ibpm::history {

using state::FetchedRows;

// The port's history from its AVERAGE rows and, when read, its MAX rows; with keep_rows, the
// AVERAGE rows of the data and wait counters too (PortHistory::rows).
PortHistory history_from(const FetchedRows& average, const FetchedRows* peak,
                         bool keep_rows = false);

}  // namespace ibpm::history
