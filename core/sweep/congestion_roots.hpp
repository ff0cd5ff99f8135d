// SPDX-License-Identifier: MIT
// What the long output says of a port whose XmitWait is over its threshold: the root of the
// congestion tree it waits in, found by the same code as ibpm-congestion
// (routes/congestion_trees.hpp), fed with this sweep's rates (each port's transmit
// utilization and XmitWait share over the interval since its last sample) and the forwarding
// tables in STATE_DIR/routes.lft (ibpm-routes --refresh). Without the tables nothing is added.
//
// A port waits when the thresholds judge its xmit_wait_pct not OK; a port is full at 90 %
// transmit utilization, ibpm-congestion's default --busy-threshold.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "fabric/fabric.hpp"
#include "routes/congestion_trees.hpp"
#include "sweep/sweep.hpp"
#include "sweep/sweep_report.hpp"

namespace ibpm::sweep {

// The long output's line for each port of the congestion trees the loads make:
//   victim:                 "xmit_wait over threshold: root is leaf01[1] -> cn0001[1]"
//   (in two trees)          "xmit_wait over threshold: roots are A, B"
//   root that waits itself: "xmit_wait over threshold: root itself (nothing full or waiting
//                            beyond it)"
//   root that does not:     "congestion root: 3 ports over their xmit_wait threshold wait
//                            behind it"
struct CongestionNote {
  CongestionPart part = CongestionPart::none;  // victim or root
  std::string text;
};
std::map<PortRef, CongestionNote> congestion_notes(const routes::RouteMap& map,
                                                   const routes::EgressLoads& loads,
                                                   const NodeNameMap* names);

// This sweep's loads: every answered port's transmit utilization, and its XmitWait share where
// the thresholds judge xmit_wait_pct not OK (the ports that wait, and no others).
routes::EgressLoads sweep_loads(const SweepResult& sweep);

// Adds congestion_notes to the verdicts that are not OK, and each port's part in a tree to its
// verdict (an OK root too: the OpenMetrics file names it). Returns why it could not (an
// unreadable tables file), for the long output.
std::vector<std::string> add_congestion_roots(const SweepOptions& options, const SweepResult& sweep,
                                              std::vector<PortVerdict>& verdicts);

}  // namespace ibpm::sweep
