// SPDX-License-Identifier: MIT
// A traffic generator for the simulated fabric: steady flows between hosts, routed along
// shortest paths (in a fat tree: up to the lowest common level and down again, flows of
// different pairs spread over the equal paths by a hash of the pair), turned into the port
// counters they raise. Setting those counters in ibsim gives tests and the demo traffic whose
// rates, utilization and locality are known exactly.
#pragma once

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "sim/net_topology.hpp"

namespace ibpm::sim {

struct Flow {
  std::string from;  // host names of the net file
  std::string to;
  double octets_per_second = 0;
};

class TrafficPattern {
 public:
  // Throws std::invalid_argument for an unknown host, a flow to itself, or no path.
  TrafficPattern(const NetTopology& topology, std::vector<Flow> flows);

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
  const NetTopology& topology_;
  std::vector<Flow> flows_;
  std::vector<std::vector<NetPort>> paths_;
  std::map<PortKey, double> xmit_;
  std::map<PortKey, double> rcv_;
};

}  // namespace ibpm::sim
