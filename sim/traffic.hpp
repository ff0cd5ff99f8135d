// SPDX-License-Identifier: MIT
// A traffic generator for the simulated fabric: steady flows between hosts, routed along
// shortest paths (in a fat tree: up to the lowest common level and down again, flows of
// different pairs spread over the equal paths by a hash of the pair), turned into the port
// counters they raise. Setting those counters in ibsim gives tests and the demo traffic whose
// rates, utilization and locality are known exactly.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "sim/net_topology.hpp"

namespace ibpm::sim {

struct Flow {
  std::string from;  // host names of the net file
  std::string to;
  double octets_per_second = 0;
};

// `PerformanceSet "leaf01"[3] PortCounters.PortXmitWait=1234`: the ibsim console command that
// sets one counter ("Attribute.Field") of a port.
std::string performance_set(const NetTopology& topology, NetPort port, std::string_view counter,
                            std::uint64_t value);

class TrafficPattern {
 public:
  // Throws std::invalid_argument for an unknown host, a flow to itself, or no path.
  TrafficPattern(const NetTopology& topology, std::vector<Flow> flows);
  // The flows along given paths, one per flow (egress ports, host port first, as path()
  // returns them): the routes a fabric's forwarding tables take, or the same paths at other
  // rates. Throws std::invalid_argument when the counts differ or a path's port is not cabled.
  TrafficPattern(const NetTopology& topology, std::vector<Flow> flows,
                 std::vector<std::vector<NetPort>> paths);

  const std::vector<Flow>& flows() const { return flows_; }
  // Octets per second the flows send out of / receive into a port (0 for untouched ports).
  double xmit_rate(NetPort port) const;
  double rcv_rate(NetPort port) const;
  // The ports a flow leaves from, hop by hop (host port first).
  const std::vector<NetPort>& path(std::size_t flow) const { return paths_.at(flow); }

  // ibsim console commands that set the data counters of every touched port to what the flows
  // sent in `seconds`: PortCounters (32-bit, 4-octet words, stopped at their maximum as sticky
  // counters do) and PortCountersExtended (64-bit).
  std::vector<std::string> counter_commands(double seconds) const;

 private:
  using PortKey = std::pair<std::size_t, int>;
  void add_path(const Flow& flow, std::vector<NetPort> path);
  const NetTopology& topology_;
  std::vector<Flow> flows_;
  std::vector<std::vector<NetPort>> paths_;
  std::map<PortKey, double> xmit_;
  std::map<PortKey, double> rcv_;
};

}  // namespace ibpm::sim
