// SPDX-License-Identifier: MIT

#include "sim/congested_traffic.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <utility>

#include "counters/counter.hpp"
#include "fabric/types.hpp"

namespace ibpm::sim {

double egress_capacity(const NetTopology& topology, NetPort port) {
  const auto link = topology.link_at(port);
  if (!link) throw std::invalid_argument("port " + topology.port_name(port) + " is not cabled");
  const PortSetting active = active_setting(topology.links()[*link]);
  return static_cast<double>(link_capacity_bps(active.width, active.speed)) / 8;
}

CongestedTraffic congest(const NetTopology& topology, const TrafficPattern& demanded) {
  CongestedTraffic congested;
  std::map<std::pair<std::size_t, int>, std::size_t> index_of;  // (node, port) -> model port
  std::vector<double> capacity;
  std::vector<ModelFlow> flows;
  for (std::size_t f = 0; f < demanded.flows().size(); ++f) {
    ModelFlow flow{demanded.flows()[f].octets_per_second, {}};
    for (NetPort out : demanded.path(f)) {
      auto [it, added] = index_of.try_emplace({out.node, out.port}, congested.ports.size());
      if (added) {
        congested.ports.push_back(out);
        capacity.push_back(egress_capacity(topology, out));
      }
      flow.path.push_back(it->second);
    }
    flows.push_back(std::move(flow));
  }
  congested.outcome = solve_congestion(capacity, flows);
  return congested;
}

std::vector<Flow> delivered_flows(const std::vector<Flow>& demanded,
                                  const CongestionOutcome& outcome) {
  std::vector<Flow> delivered = demanded;
  for (std::size_t f = 0; f < delivered.size(); ++f)
    delivered[f].octets_per_second = outcome.flows.at(f).delivered;
  return delivered;
}

std::uint64_t xmit_wait_ticks(double lost_share, double seconds, double capacity_octets_per_s,
                              std::optional<double> tick_ns) {
  if (!(lost_share > 0) || !(seconds > 0)) return 0;
  const double tick =
      tick_ns ? *tick_ns * 1e-9 : counters::default_xmit_wait_tick(capacity_octets_per_s * 8);
  return static_cast<std::uint64_t>(std::llround(lost_share * seconds / tick));
}

std::uint64_t xmit_wait_counter(const PortOutcome& port, double seconds,
                                std::optional<double> tick_ns) {
  constexpr std::uint64_t kMax32 = std::numeric_limits<std::uint32_t>::max();
  return std::min(xmit_wait_ticks(port.lost_share, seconds, port.capacity, tick_ns), kMax32);
}

std::vector<std::string> xmit_wait_commands(const NetTopology& topology,
                                            const CongestedTraffic& congested, double seconds,
                                            std::optional<double> tick_ns) {
  std::vector<std::string> commands;
  for (std::size_t p = 0; p < congested.ports.size(); ++p)
    commands.push_back(
        performance_set(topology, congested.ports[p], "PortCounters.PortXmitWait",
                        xmit_wait_counter(congested.outcome.ports[p], seconds, tick_ns)));
  return commands;
}

}  // namespace ibpm::sim
