// SPDX-License-Identifier: MIT
// Congestion trees from what each egress port did over a window (ibpm-congestion's history) or
// one sweep's interval (check_ib_fabric's long output): the ports that waited for
// credits (XmitWait), the roots those waits lead to when the routes are followed downstream,
// and the jobs that cause or suffer each tree. No I/O: the loads and the routes come in.
//
// In a lossless fabric a full port at the tip (a leaf's port to an incast's host, a hot uplink)
// fills the buffers behind it, and every port upstream that feeds it waits, however idle its own
// link. So from each waiting port the routes are followed one hop at a time: for the
// destinations routed out of the port, the next switch's egress for the same destinations. A
// next egress that waits too is followed on; one that is full (utilization at or above the busy
// threshold) without waiting is a root, its receiver drains it. A waiting port with neither
// downstream is a root itself: the tip as far as the counters see (a slow receiver, or a
// next hop without history).
//
// A victim whose routes reach two roots belongs to both trees: each of them carries some of
// its destinations' routes (a root its routes never reach is never named).
//
// Waiting and fullness are judged in the same rows of the history: a port that waited in a row
// is followed to the ports full (or waiting) in that row. A window is what a user asks for
// ("the last hour"), not the congestion's span: over a window that starts before an incast the
// root's average utilization is diluted below the busy threshold while it was full every row the
// incast ran. The trees of the rows are then joined: a port's roots are those of every row it
// waited in, and a port that was a tip only in some rows (the first and last rows of an episode,
// where the root was full for part of the row) and waited for a full root in others is that
// root's victim, not a root of its own. Loads without rows are one row: the window's averages.
#pragma once

#include <ctime>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "fabric/fabric.hpp"
#include "routes/route_map.hpp"

namespace ibpm::routes {

// One row of an egress port's history (NaN: unknown).
struct RowLoad {
  float utilization = std::numeric_limits<float>::quiet_NaN();  // share of the capacity, 0..1
  float wait_share = std::numeric_limits<float>::quiet_NaN();   // share of the row, 0..1
  bool wait_saturated = false;  // its 32-bit PortXmitWait sat at its maximum: it waited
};

// One egress port over the window.
struct EgressLoad {
  std::optional<double> utilization;  // average share of the link's capacity, 0..1
  std::optional<double> wait_share;   // share of the window it waited to send, 0..1
  // Its 32-bit PortXmitWait sat at its maximum (in some row): it waited, for at least what
  // wait_share says, and counts as waiting wherever its rows do not say otherwise.
  bool wait_saturated = false;
  // Row by row when known (ibpm-congestion's history): row r covers
  // (rows_start + r * rows_step, rows_start + (r + 1) * rows_step]. Without rows the averages
  // stand for every moment of the window.
  std::time_t rows_start = 0;
  std::time_t rows_step = 0;
  std::vector<RowLoad> rows;
};

// By the port the direction leaves through.
using EgressLoads = std::map<PortRef, EgressLoad>;

// Whether any port has an XmitWait share at all, or a saturated PortXmitWait (without one there
// is nothing to analyse).
bool has_xmit_wait(const EgressLoads& loads);

struct CongestionThresholds {
  double wait = 0.05;  // a port waits when its XmitWait share is above this (in a row)
  double busy = 0.9;   // a port is full at this utilization or more (in the same row)
};

enum class CongestionRole { root, victim };
const char* to_string(CongestionRole role);

// A port that waits, or is a root.
struct CongestedPort {
  PortRef port;
  CongestionRole role = CongestionRole::victim;
  double lost_share = 0;              // XmitWait share of the window (0 when not measured)
  std::optional<double> utilization;  // average over the window
  std::vector<std::size_t> trees;     // indices into CongestionReport::trees it belongs to
  bool wait_saturated = false;        // PortXmitWait at its maximum: lost at least lost_share
};

struct CongestionTree {
  std::size_t root = 0;              // index into CongestionReport::ports
  std::vector<std::size_t> victims;  // indices into CongestionReport::ports, most lost first
  // With jobs: those whose routes end at or cross the root, and those that cross only its
  // victims (they suffer, they do not cause). Sorted.
  std::vector<std::string> cause_jobs;
  std::vector<std::string> suffer_jobs;
};

struct CongestionReport {
  std::vector<CongestedPort> ports;   // roots and victims, in port order
  std::vector<CongestionTree> trees;  // the most victims first
};

// job_ports: the jobs whose routes leave through each port (job_directions); null or empty
// names no job.
CongestionReport find_congestion(
    const RouteMap& map, const EgressLoads& loads, const CongestionThresholds& thresholds,
    const std::map<PortRef, std::vector<std::string>>* job_ports = nullptr);

}  // namespace ibpm::routes
