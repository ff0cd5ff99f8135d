// SPDX-License-Identifier: MIT

#include "routes/cable_pairs.hpp"

#include <algorithm>
#include <cstdint>

namespace ibpm::routes {

namespace {

enum class Crossing : std::uint8_t { unknown, on_walk, yes, no };

// Whether the route from each switch to one DLID leaves through one port, worked out lazily:
// a walk from a switch ends at the port, at the end of the route or at a switch already known,
// and every switch it passed shares the answer.
class CrossingMemo {
 public:
  CrossingMemo(const RouteMap& map, std::size_t from_node, PortNumber from_port)
      : map_(map),
        from_node_(from_node),
        from_port_(from_port),
        state_(map.fabric().nodes().size(), Crossing::unknown) {}

  void reset(unsigned dlid) {
    dlid_ = dlid;
    std::fill(state_.begin(), state_.end(), Crossing::unknown);
  }

  bool crosses(std::size_t node) {
    walk_.clear();
    Crossing answer = Crossing::no;
    while (true) {
      if (state_[node] == Crossing::yes || state_[node] == Crossing::no) {
        answer = state_[node];
        break;
      }
      if (state_[node] == Crossing::on_walk) break;  // a loop that never passes the port
      if (map_.fabric().nodes()[node].type != NodeType::sw) break;
      state_[node] = Crossing::on_walk;
      walk_.push_back(node);
      const RouteMap::Step s = map_.step(node, dlid_);
      if (!s.forwards) break;
      if (node == from_node_ && s.egress == from_port_) {
        answer = Crossing::yes;
        break;
      }
      node = s.next_node;
    }
    for (std::size_t n : walk_) state_[n] = answer;
    return answer == Crossing::yes;
  }

 private:
  const RouteMap& map_;
  std::size_t from_node_;
  PortNumber from_port_;
  unsigned dlid_ = 0;
  std::vector<Crossing> state_;
  std::vector<std::size_t> walk_;
};

}  // namespace

std::vector<EndpointPair> pairs_through(const RouteMap& map, PortRef from) {
  std::vector<EndpointPair> pairs;
  const Node* node = map.fabric().find(from.node);
  if (!node) return pairs;
  const auto& endpoints = map.endpoints();
  // Out of a host's own port: every pair from that host.
  if (const auto source = map.endpoint_of(from)) {
    for (std::size_t d = 0; d < endpoints.size(); ++d)
      if (d != *source) pairs.emplace_back(*source, d);
    return pairs;
  }
  CrossingMemo memo(map, map.fabric().index_of(from.node), from.port);
  for (std::size_t d = 0; d < endpoints.size(); ++d) {
    memo.reset(endpoints[d].lid);
    for (std::size_t s = 0; s < endpoints.size(); ++s) {
      if (s == d || !endpoints[s].first_switch) continue;
      if (memo.crosses(*endpoints[s].first_switch)) pairs.emplace_back(s, d);
    }
  }
  return pairs;
}

std::map<PortRef, std::size_t> pair_counts(const RouteMap& map) {
  const auto& nodes = map.fabric().nodes();
  const auto& endpoints = map.endpoints();
  // counts[node index][port]
  std::vector<std::vector<std::size_t>> counts(nodes.size());
  for (std::size_t i = 0; i < nodes.size(); ++i) counts[i].assign(nodes[i].ports.size(), 0);

  // Sources behind each switch (their first switch).
  std::vector<std::size_t> sources_at(nodes.size(), 0);
  std::vector<std::size_t> source_switches;
  for (const Endpoint& e : endpoints) {
    if (!e.first_switch) continue;
    if (sources_at[*e.first_switch]++ == 0) source_switches.push_back(*e.first_switch);
  }
  std::vector<bool> visited(nodes.size(), false);
  std::vector<std::size_t> walked;
  for (std::size_t d = 0; d < endpoints.size(); ++d) {
    const Endpoint& dest = endpoints[d];
    for (std::size_t sw : source_switches) {
      std::size_t sources = sources_at[sw];
      if (dest.first_switch == sw) --sources;  // the destination is not its own source
      if (sources == 0) continue;
      walked.clear();
      std::size_t at = sw;
      while (nodes[at].type == NodeType::sw && !visited[at]) {
        visited[at] = true;
        walked.push_back(at);
        const RouteMap::Step s = map.step(at, dest.lid);
        if (!s.forwards) break;
        counts[at][s.egress] += sources;
        at = s.next_node;
      }
      for (std::size_t n : walked) visited[n] = false;
    }
  }
  for (std::size_t s = 0; s < endpoints.size(); ++s) {
    const PortRef port = endpoints[s].port;
    counts[map.fabric().index_of(port.node)][port.port] += endpoints.size() - 1;
  }

  std::map<PortRef, std::size_t> result;
  for (std::size_t i = 0; i < nodes.size(); ++i)
    for (std::size_t p = 0; p < counts[i].size(); ++p)
      if (counts[i][p]) result[{nodes[i].guid, static_cast<PortNumber>(p)}] = counts[i][p];
  return result;
}

}  // namespace ibpm::routes
