// SPDX-License-Identifier: MIT

#include "sim/traffic.hpp"

#include <cmath>
#include <cstdint>
#include <deque>
#include <functional>
#include <limits>
#include <stdexcept>

namespace ibpm::sim {

namespace {

// Hops from every node to `to` (-1 where unreachable), over the cables of the net file.
std::vector<int> distances_to(const NetTopology& topology, std::size_t to) {
  std::vector<int> distance(topology.nodes().size(), -1);
  std::vector<std::vector<std::size_t>> neighbours(topology.nodes().size());
  for (const NetLink& link : topology.links()) {
    neighbours[link.a.node].push_back(link.b.node);
    neighbours[link.b.node].push_back(link.a.node);
  }
  std::deque<std::size_t> queue{to};
  distance[to] = 0;
  while (!queue.empty()) {
    std::size_t n = queue.front();
    queue.pop_front();
    for (std::size_t m : neighbours[n])
      if (distance[m] < 0) {
        distance[m] = distance[n] + 1;
        queue.push_back(m);
      }
  }
  return distance;
}

std::size_t host_index(const NetTopology& topology, const std::string& name) {
  auto found = topology.find_node(name);
  if (!found) throw std::invalid_argument("traffic: no node " + name + " in the fabric");
  if (topology.node(*found).type != NodeType::ca)
    throw std::invalid_argument("traffic: " + name + " is not a host");
  return *found;
}

std::uint64_t words(double octets) { return static_cast<std::uint64_t>(std::llround(octets / 4)); }

}  // namespace

std::string performance_set(const NetTopology& topology, NetPort port, std::string_view counter,
                            std::uint64_t value) {
  return "PerformanceSet \"" + topology.node(port.node).name + "\"[" + std::to_string(port.port) +
         "] " + std::string(counter) + "=" + std::to_string(value);
}

TrafficPattern::TrafficPattern(const NetTopology& topology, std::vector<Flow> flows)
    : topology_(topology), flows_(std::move(flows)) {
  for (const Flow& flow : flows_) {
    std::size_t from = host_index(topology, flow.from), to = host_index(topology, flow.to);
    if (from == to) throw std::invalid_argument("traffic: flow from " + flow.from + " to itself");
    auto distance = distances_to(topology, to);
    if (distance[from] < 0)
      throw std::invalid_argument("traffic: no path from " + flow.from + " to " + flow.to);
    const std::size_t pair_hash = std::hash<std::string>{}(flow.from + ">" + flow.to);
    std::vector<NetPort> path;
    for (std::size_t at = from; at != to;) {
      std::vector<NetPort> closer;
      for (int p = 1; p <= topology.node(at).port_count; ++p) {
        auto peer = topology.peer({at, p});
        if (peer && distance[peer->node] == distance[at] - 1) closer.push_back({at, p});
      }
      NetPort out = closer[(pair_hash + path.size()) % closer.size()];
      path.push_back(out);
      at = topology.peer(out)->node;
    }
    add_path(flow, std::move(path));
  }
}

TrafficPattern::TrafficPattern(const NetTopology& topology, std::vector<Flow> flows,
                               std::vector<std::vector<NetPort>> paths)
    : topology_(topology), flows_(std::move(flows)) {
  if (paths.size() != flows_.size())
    throw std::invalid_argument("traffic: " + std::to_string(paths.size()) + " paths for " +
                                std::to_string(flows_.size()) + " flows");
  for (std::size_t f = 0; f < flows_.size(); ++f) {
    for (NetPort out : paths[f])
      if (!topology.peer(out))
        throw std::invalid_argument("traffic: " + topology.port_name(out) + " is not cabled");
    add_path(flows_[f], std::move(paths[f]));
  }
}

void TrafficPattern::add_path(const Flow& flow, std::vector<NetPort> path) {
  for (NetPort out : path) {
    NetPort in = *topology_.peer(out);
    xmit_[{out.node, out.port}] += flow.octets_per_second;
    rcv_[{in.node, in.port}] += flow.octets_per_second;
  }
  paths_.push_back(std::move(path));
}

double TrafficPattern::xmit_rate(NetPort port) const {
  auto found = xmit_.find({port.node, port.port});
  return found == xmit_.end() ? 0 : found->second;
}

double TrafficPattern::rcv_rate(NetPort port) const {
  auto found = rcv_.find({port.node, port.port});
  return found == rcv_.end() ? 0 : found->second;
}

std::vector<std::string> TrafficPattern::counter_commands(double seconds) const {
  constexpr std::uint64_t kMax32 = std::numeric_limits<std::uint32_t>::max();
  std::vector<std::string> commands;
  auto set = [&](const PortKey& key, const std::string& field, double rate) {
    const NetPort port{key.first, key.second};
    const std::uint64_t value = words(rate * seconds);
    commands.push_back(
        performance_set(topology_, port, "PortCounters." + field, std::min(value, kMax32)));
    commands.push_back(performance_set(topology_, port, "PortCountersExtended." + field, value));
  };
  for (const auto& [key, rate] : xmit_) set(key, "PortXmitData", rate);
  for (const auto& [key, rate] : rcv_) set(key, "PortRcvData", rate);
  return commands;
}

}  // namespace ibpm::sim
