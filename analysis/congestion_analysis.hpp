// SPDX-License-Identifier: MIT
// ibpm-congestion's trees over a window of the history: the core's root finding
// (routes/congestion_trees.hpp, which check_ib_fabric runs on one sweep too) fed with each
// direction's average utilization and XmitWait share from ibpm-utilization's link usage.
#pragma once

#include <vector>

#include "history/link_usage.hpp"
#include "routes/congestion_trees.hpp"

namespace ibpm::analysis {

using routes::CongestedPort;
using routes::CongestionReport;
using routes::CongestionRole;
using routes::CongestionThresholds;
using routes::CongestionTree;
using routes::EgressLoad;
using routes::EgressLoads;
using routes::find_congestion;
using routes::has_xmit_wait;
using routes::RowLoad;

// The measured directions of ibpm-utilization's link usage, by sending port, with their rows
// when the history kept them (CollectOptions::rows).
EgressLoads egress_loads(const std::vector<history::LinkUsage>& usage);

}  // namespace ibpm::analysis
