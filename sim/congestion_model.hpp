// SPDX-License-Identifier: MIT
// A steady-state congestion model of a lossless fabric (docs/congestion-model.md): flows with a
// demand cross egress ports of known capacity; where the flows through a port ask more than it
// carries, their rates are cut by max-min fair sharing. A port that cuts a flow is that flow's
// bottleneck (a root); the ports before it on the flow's path wait for credits (victims) and
// lose a share of their transmit time, which the simulator turns into PortXmitWait.
//
// Pure: ports are indices into the capacity vector, no I/O, the same input gives the same output.
#pragma once

#include <cstddef>
#include <optional>
#include <string_view>
#include <vector>

namespace ibpm::sim {

struct ModelFlow {
  double demand = 0;              // octets per second the sender offers
  std::vector<std::size_t> path;  // egress ports it leaves from, in order (host port first)
};

enum class PortRole {
  clean,   // no cut flow waits here
  victim,  // before the bottleneck on a cut flow's path, and no bottleneck itself
  root,    // at capacity, and the bottleneck of at least one cut flow
};

std::string_view to_string(PortRole role);  // "clean", "victim", "root"

struct FlowOutcome {
  double demand = 0;
  double delivered = 0;
  // The port that cut the flow (index into the capacities); nullopt when delivered == demand.
  std::optional<std::size_t> bottleneck;
  bool cut() const { return bottleneck.has_value(); }
};

struct PortOutcome {
  double capacity = 0;  // octets per second
  double offered = 0;   // sum of the demands of the flows through it
  double carried = 0;   // sum of their delivered rates
  PortRole role = PortRole::clean;
  // Share of the time the port held data but had no credits, 0..1 (see congestion_model.cpp).
  double lost_share = 0;
  double utilization() const { return capacity > 0 ? carried / capacity : 0; }
};

struct CongestionOutcome {
  std::vector<FlowOutcome> flows;  // in the order of the input flows
  std::vector<PortOutcome> ports;  // in the order of the capacities
  bool congested() const;          // some flow was cut
};

// capacity[i]: octets per second port i sends at most. Throws std::invalid_argument for a path
// naming a port beyond the capacities, a negative demand or a capacity that is not positive.
CongestionOutcome solve_congestion(const std::vector<double>& capacity,
                                   const std::vector<ModelFlow>& flows);

}  // namespace ibpm::sim
