// SPDX-License-Identifier: MIT
// ibpm-congestion's output: the congestion trees, roots first, as an aligned table, CSV (one row
// per port and tree) or JSON (the ports with the keys the simulator's truth uses: node, guid,
// port, role, lost_share, utilization, and wait_saturated: the port's 32-bit PortXmitWait sat at
// its maximum, so lost_share is a lower bound; and the trees with their jobs). lost_share and
// utilization are averages over the window; the roles are judged row by row.
#pragma once

#include <ctime>
#include <ostream>
#include <string>

#include "analysis/congestion_analysis.hpp"
#include "fabric/node_name_map.hpp"

namespace ibpm::analysis {

struct CongestionContext {
  const Fabric& fabric;
  const NodeNameMap* names = nullptr;
  std::time_t start = 0;
  std::time_t end = 0;
  std::string coverage;  // history::describe_coverage
  CongestionThresholds thresholds;
  bool jobs = false;  // a jobs file was given: the tables name the jobs
};

// Said instead of a report when no port has an XmitWait rate in the window.
extern const char* const kNoXmitWaitHistory;

void print_congestion_table(std::ostream& out, const CongestionReport& report,
                            const CongestionContext& context);
void print_congestion_csv(std::ostream& out, const CongestionReport& report,
                          const CongestionContext& context);
// note: kNoXmitWaitHistory when there was none, empty otherwise.
void print_congestion_json(std::ostream& out, const CongestionReport& report,
                           const CongestionContext& context, const std::string& note = {});

}  // namespace ibpm::analysis
