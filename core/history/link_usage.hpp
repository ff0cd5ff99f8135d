// SPDX-License-Identifier: MIT
// Link utilization over a window: for each cable and direction, the average and peak data rate
// against the link's capacity, XmitWait %, and error rates, from the RRD history of both ends.
// A direction a -> b is read at a's transmit side (PortXmitData, PortXmitWait) and falls back to
// b's receive side (PortRcvData) when a was not polled (a CA nobody monitors, a shard boundary).
#pragma once

#include <ctime>
#include <functional>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "fabric/fabric.hpp"
#include "history/port_history.hpp"

namespace ibpm::history {

// One RRD row of a direction: the share of the link's capacity it used and the share of the
// row's time `from` waited to send (NaN where unknown).
struct DirectionRow {
  float utilization = std::numeric_limits<float>::quiet_NaN();
  float wait_share = std::numeric_limits<float>::quiet_NaN();
  bool wait_saturated = false;  // the 32-bit PortXmitWait sat at its maximum: it waited
};

struct DirectionUsage {
  PortRef from;
  PortRef to;
  bool measured = false;
  double average_octets_s = 0;
  double peak_octets_s = 0;
  std::optional<double> average_util;  // 0..1 of capacity (nullopt: capacity unknown)
  std::optional<double> peak_util;
  std::optional<double> xmit_wait_pct;  // share of the window `from` waited to send (0..100)
  double errors_s =
      0;  // error counters of `from` (receive errors of the link's far end count there)
  // `from`'s 32-bit PortXmitWait sat at its maximum in some row: it waited, how long is unknown
  // (its share counts only the rows before).
  bool xmit_wait_saturated = false;
  // Row by row, when the histories kept their rows (HistoryReader::keep_rows): row r covers
  // (rows_start + r * rows_step, rows_start + (r + 1) * rows_step].
  std::time_t rows_start = 0;
  std::time_t rows_step = 0;
  std::vector<DirectionRow> rows;
};

struct LinkUsage {
  std::size_t link = 0;  // index into Fabric::links()
  std::optional<double> capacity_octets_s;
  DirectionUsage a_to_b;  // Link::a transmits
  DirectionUsage b_to_a;
  double errors_s = 0;  // every error counter of both ends, per second
  // The busier direction's average utilization (nullopt when neither direction was measured).
  std::optional<double> utilization() const;
};

struct UsageOptions {
  std::optional<double> xmit_wait_tick_ns;  // nullopt: one tick = the time of one data word
  bool peaks = true;  // false: averages only (peak = average), half the RRD reads
};

// Each link's usage from its ends' histories, read already (HistoryReader::read_all: each file
// read once for the usage and for each port's own history): history_of(port) is the port's
// history over the window, found = false when it has none.
std::vector<LinkUsage> link_usage(const Fabric& fabric,
                                  const std::function<PortHistory(PortRef)>& history_of,
                                  const UsageOptions& options = {});

// The error counters' summed average rate (per second), 0 without history.
double error_rate(const PortHistory& history);

}  // namespace ibpm::history
