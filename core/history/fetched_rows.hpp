// SPDX-License-Identifier: MIT
// The rows of one RRD archive over a window, as librrd's fetch gives them or as rrdcached's FETCH
// answers them, and what they say of a port: its average and peak rates and how much of the
// window they cover.
#pragma once

#include <ctime>
#include <optional>
#include <string>
#include <vector>

#include "history/port_history.hpp"
#include "state/rrdcached_pipeline.hpp"

namespace ibpm::history {

struct FetchedRows {
  std::time_t start = 0, end = 0;
  unsigned long step = 0;
  std::size_t sources = 0;
  std::vector<std::string> names;
  std::vector<double> values;  // row by row, `sources` values each

  std::size_t rows() const { return step ? static_cast<std::size_t>((end - start) / step) : 0; }
  // Row r covers (start + r*step, start + (r+1)*step].
  double value(std::size_t row, std::size_t source) const { return values[row * sources + source]; }
};

// Throws StateError naming `file` unless the rows have our data sources in our order.
void check_sources(const std::string& file, const FetchedRows& rows);

// FETCH's answer ("FlushVersion", "Start", "End", "Step", "DSCount", "DSName" lines, then one
// "TIME: V1 V2 ..." line per row) as rows; nullopt when the daemon has no such file. Throws
// StateError naming `file` for a refusal or an answer that is not FETCH's.
std::optional<FetchedRows> rows_from_fetch_answer(const std::string& file,
                                                  const state::DaemonAnswer& answer);

// The port's history from its AVERAGE rows and, when read, its MAX rows; with keep_rows, the
// AVERAGE rows of the data and wait counters too (PortHistory::rows).
PortHistory history_from(const FetchedRows& average, const FetchedRows* peak,
                         bool keep_rows = false);

}  // namespace ibpm::history
