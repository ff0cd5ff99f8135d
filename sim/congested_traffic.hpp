// SPDX-License-Identifier: MIT
// The congestion model (congestion_model.hpp) on a simulated fabric: the egress ports the flows
// of a traffic pattern leave from, each with its link's capacity, the flows cut to the rates
// they get, and the PortXmitWait each port accumulates.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "sim/congestion_model.hpp"
#include "sim/net_topology.hpp"
#include "sim/traffic.hpp"

namespace ibpm::sim {

// Octets per second a cabled port sends at most: its link's active width and speed.
double egress_capacity(const NetTopology& topology, NetPort port);

struct CongestedTraffic {
  std::vector<NetPort> ports;  // model port i is ports[i]: every port a flow leaves from
  CongestionOutcome outcome;   // flows in the pattern's order
};

CongestedTraffic congest(const NetTopology& topology, const TrafficPattern& demanded);

// The demanded flows at the rates the model delivers.
std::vector<Flow> delivered_flows(const std::vector<Flow>& demanded,
                                  const CongestionOutcome& outcome);

// PortXmitWait after `seconds` at a lost share: the inverse of how ibpm reads the counter back
// (share = ticks per second x tick; the tick `tick_ns`, or when not given
// default_xmit_wait_tick(capacity) of counters/counter.hpp, as ibpm's --xmit-wait-tick), so the
// project's own reading returns the model's share.
std::uint64_t xmit_wait_ticks(double lost_share, double seconds, double capacity_octets_per_s,
                              std::optional<double> tick_ns = std::nullopt);

// What PortCounters.PortXmitWait is set to for a port: its ticks after `seconds`, stopped at the
// 32-bit maximum as the sticky counter is.
std::uint64_t xmit_wait_counter(const PortOutcome& port, double seconds,
                                std::optional<double> tick_ns = std::nullopt);

// ibsim console commands that set PortCounters.PortXmitWait of every port a flow leaves from
// (clean ones to 0) to xmit_wait_counter. Only PortCounters: ibsim's PortCountersExtended has
// no PortXmitWait field. At the default tick (the time of 4 octets) the counter is full after
// 2^32 ticks: 0.69 s / lost share on 4x HDR, 17 s / lost share on 4x SDR; a longer tick_ns
// makes it last (100 ns: 429 s / lost share).
std::vector<std::string> xmit_wait_commands(const NetTopology& topology,
                                            const CongestedTraffic& congested, double seconds,
                                            std::optional<double> tick_ns = std::nullopt);

}  // namespace ibpm::sim
