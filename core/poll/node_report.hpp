// SPDX-License-Identifier: MIT
// A node's polled ports as check_ib_node reports them: one line per port (worst first), the
// worst state wins, the summary names the worst ports by both cable ends, perfdata per port
// (p3_...). check_ib_node and the sweep's per-switch passive results share it.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "plugin/result.hpp"
#include "poll/port_report.hpp"
#include "poll/port_result.hpp"
#include "thresholds/rate_thresholds.hpp"

namespace ibpm::poll {

// "leaf01: 36 ports, 2 not OK; worst: leaf01[3] <-> spine02[1] rcv_errors 27/s (...)".
struct NodeReportSettings {
  ReportSettings port;    // as report_settings() gives them
  std::size_t shown = 3;  // worst ports named in the summary
};

// Called with the ports' subchecks in `results` order, before they are sorted (whom the ports in
// trouble hurt is added there).
using AnnotatePorts = std::function<void(std::vector<plugin::Subcheck*>&)>;

// `results` are the node's ports in port order; `node` its display name.
plugin::Check node_report(const std::string& node, const std::vector<const PortResult*>& results,
                          const NodeReportSettings& settings, const AnnotatePorts& annotate = {});

}  // namespace ibpm::poll
