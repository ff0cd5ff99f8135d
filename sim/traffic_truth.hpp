// SPDX-License-Identifier: MIT
// What the congestion model made of a flows file, as JSON for tests and analyses to compare
// with (ibpm-sim traffic --truth FILE):
//   {"seconds":30,
//    "ports":[{"node":"leaf01","guid":"0x...","port":3,"role":"root|victim|clean",
//              "lost_share":0.25,"utilization":1,"capacity":25000000000,"offered":...,
//              "carried":...,"xmit_wait":1234}, ...],
//    "flows":[{"from":"cn0001","to":"cn0002","demand":...,"delivered":...,
//              "bottleneck":{"node":"leaf01","guid":"0x...","port":3} or null}, ...]}
// Ports: every port a flow leaves from (host ports included), in node and port order; ports no
// flow crosses are clean and left out. Rates in octets per second, shares 0..1, xmit_wait the
// PortXmitWait value set after `seconds`. guid is null for a node the GUID map lacks.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "fabric/types.hpp"
#include "sim/congested_traffic.hpp"

namespace ibpm::sim {

std::string traffic_truth_json(const NetTopology& topology, const CongestedTraffic& congested,
                               const std::vector<Flow>& flows,
                               const std::map<std::string, Guid>& guid_by_name, double seconds,
                               std::optional<double> tick_ns = std::nullopt);

}  // namespace ibpm::sim
