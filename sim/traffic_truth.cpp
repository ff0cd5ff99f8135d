// SPDX-License-Identifier: MIT

#include "sim/traffic_truth.hpp"

#include <algorithm>
#include <numeric>

#include "base/json.hpp"

namespace ibpm::sim {

namespace {

// "node":"leaf01","guid":"0x...","port":3
std::string truth_port_fields(const NetTopology& topology, NetPort port,
                              const std::map<std::string, Guid>& guid_by_name) {
  const std::string& name = topology.node(port.node).name;
  const auto guid = guid_by_name.find(name);
  return "\"node\":" + base::json_string(name) + ",\"guid\":" +
         (guid == guid_by_name.end() ? std::string("null")
                                     : base::json_string(format_guid(guid->second))) +
         ",\"port\":" + std::to_string(port.port);
}

}  // namespace

std::string traffic_truth_json(const NetTopology& topology, const CongestedTraffic& congested,
                               const std::vector<Flow>& flows,
                               const std::map<std::string, Guid>& guid_by_name, double seconds,
                               std::optional<double> tick_ns) {
  using base::json_number;
  std::vector<std::size_t> order(congested.ports.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    const NetPort &pa = congested.ports[a], &pb = congested.ports[b];
    return std::pair(pa.node, pa.port) < std::pair(pb.node, pb.port);
  });

  std::string json = "{\"seconds\":" + json_number(seconds) + ",\n\"ports\":[";
  for (std::size_t i = 0; i < order.size(); ++i) {
    const PortOutcome& p = congested.outcome.ports[order[i]];
    json += (i ? ",\n" : "\n");
    json += "{" + truth_port_fields(topology, congested.ports[order[i]], guid_by_name) +
            ",\"role\":\"" + std::string(to_string(p.role)) +
            "\",\"lost_share\":" + json_number(p.lost_share) +
            ",\"utilization\":" + json_number(p.utilization()) +
            ",\"capacity\":" + json_number(p.capacity) + ",\"offered\":" + json_number(p.offered) +
            ",\"carried\":" + json_number(p.carried) +
            ",\"xmit_wait\":" + std::to_string(xmit_wait_counter(p, seconds, tick_ns)) + "}";
  }
  json += "],\n\"flows\":[";
  for (std::size_t f = 0; f < flows.size(); ++f) {
    const FlowOutcome& outcome = congested.outcome.flows.at(f);
    json += (f ? ",\n" : "\n");
    json +=
        "{\"from\":" + base::json_string(flows[f].from) +
        ",\"to\":" + base::json_string(flows[f].to) + ",\"demand\":" + json_number(outcome.demand) +
        ",\"delivered\":" + json_number(outcome.delivered) + ",\"bottleneck\":" +
        (outcome.bottleneck
             ? "{" +
                   truth_port_fields(topology, congested.ports[*outcome.bottleneck], guid_by_name) +
                   "}"
             : std::string("null")) +
        "}";
  }
  json += "]}\n";
  return json;
}

}  // namespace ibpm::sim
