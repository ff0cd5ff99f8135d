// SPDX-License-Identifier: MIT
// The console view of polled ports: one row per port with its link, traffic, utilization,
// XmitWait and every error rate that is not zero, as a table for a terminal or as JSON.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "sweep/sweep_report.hpp"

namespace ibpm::tools {

enum class RatesSort { fabric, errors, traffic };

// Ports in the order asked for (fabric: as the topology lists them; errors: the highest error
// rate first; traffic: the most octets sent and received first), at most `top` (0: all).
std::vector<const sweep::PortVerdict*> ordered_ports(
    const std::vector<sweep::PortVerdict>& verdicts, RatesSort sort, std::size_t top);

// Fabric-derived text is made safe for a terminal (no control characters).
void print_rates_table(std::ostream& out, const std::vector<const sweep::PortVerdict*>& ports);
void print_rates_json(std::ostream& out, const std::vector<const sweep::PortVerdict*>& ports);

}  // namespace ibpm::tools
