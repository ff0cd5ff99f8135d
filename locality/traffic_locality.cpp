// SPDX-License-Identifier: MIT

#include "locality/traffic_locality.hpp"

#include <algorithm>
#include <boost/dynamic_bitset.hpp>

#include "locality/down_sets.hpp"

namespace ibpm::locality {

namespace {

// The border's counters agree with the hosts' only up to management traffic (MADs to and from
// the switches, which no host port counts); beyond this share, or this rate for idle sets, the
// border is taken to carry transit traffic.
constexpr double kTransitTolerance = 0.01;
constexpr double kTransitFloor = 1e6;  // octets per second

std::optional<double> one_minus(double part, double whole) {
  if (whole <= 0) return std::nullopt;
  return 1.0 - part / whole;
}

// The direction of `usage` that leaves the node at `from`.
const history::DirectionUsage& leaving(const history::LinkUsage& usage, const Link& link,
                                       Guid from) {
  return link.a.node == from ? usage.a_to_b : usage.b_to_a;
}
const history::DirectionUsage& entering(const history::LinkUsage& usage, const Link& link,
                                        Guid to) {
  return link.a.node == to ? usage.b_to_a : usage.a_to_b;
}

// Whether the set's members reach each other over cables between members only.
bool connected_inside(const Fabric& fabric, const NodeSet& set,
                      const boost::dynamic_bitset<>& inside) {
  if (set.members.empty()) return true;
  boost::dynamic_bitset<> seen(inside.size());
  std::vector<std::size_t> stack{set.members.front()};
  seen.set(set.members.front());
  while (!stack.empty()) {
    const Node& node = fabric.nodes()[stack.back()];
    stack.pop_back();
    node.for_each_port([&](const Port& port) {
      auto peer = fabric.remote({node.guid, port.number});
      if (!peer) return;
      std::size_t n = fabric.index_of(peer->node);
      if (inside[n] && !seen[n]) {
        seen.set(n);
        stack.push_back(n);
      }
    });
  }
  return seen.count() == set.members.size();
}

}  // namespace

std::vector<SetTraffic> set_traffic(const Fabric& fabric, const DownSets& down,
                                    const std::vector<NodeSet>& sets,
                                    const std::vector<history::LinkUsage>& usage,
                                    const NodeNameMap* names) {
  const auto& nodes = fabric.nodes();
  const auto& links = fabric.links();
  std::vector<SetTraffic> out;
  out.reserve(sets.size());
  boost::dynamic_bitset<> inside(nodes.size());
  // A switch below the set that serves no host at all (a spine of empty leaves) carries no
  // traffic of anybody's: its cable is not a way down out of the set.
  const levels::FabricLevels& levels = down.levels();
  // Node indices of each cable's ends, looked up once for all sets.
  std::vector<std::pair<std::size_t, std::size_t>> ends;
  ends.reserve(links.size());
  for (const Link& link : links)
    ends.emplace_back(fabric.index_of(link.a.node), fabric.index_of(link.b.node));
  auto serves_hosts = [&](std::size_t n) { return levels::is_host(nodes[n]) || down.of(n).any(); };
  for (const NodeSet& set : sets) {
    SetTraffic t;
    t.set = &set;
    inside.reset();
    for (std::size_t m : set.members) inside.set(m);

    std::size_t host_directions = 0, host_unmeasured = 0;
    for (std::size_t h : set.hosts) {
      const Node& host = nodes[h];
      host.for_each_port([&](const Port& port) {
        if (!port.link) return;
        const Link& link = links[*port.link];
        const auto& up = leaving(usage[*port.link], link, host.guid);
        const auto& down = entering(usage[*port.link], link, host.guid);
        t.gen += up.average_octets_s;
        t.con += down.average_octets_s;
        host_directions += 2;
        host_unmeasured += !up.measured + !down.measured;
      });
    }
    t.unmeasured += host_unmeasured;
    // Unknown is not zero: hosts with no rate in the window are not idle, they are unmeasured.
    t.no_history = host_directions > 0 && host_unmeasured == host_directions;
    if (t.no_history)
      t.note = "no history in this window: none of its hosts' ports has a rate in it";

    if (t.note.empty() && !connected_inside(fabric, set, inside)) {
      t.transit = true;
      t.note = "its parts meet only outside it: data between them counts as out and in";
    }

    for (std::size_t l = 0; l < links.size(); ++l) {
      const Link& link = links[l];
      const auto [a, b] = ends[l];
      if (inside[a] == inside[b]) continue;
      std::size_t in_node = inside[a] ? a : b, out_node = inside[a] ? b : a;
      // An aggregation node computes inside its switch: its cable is not a border.
      if (levels::is_aggregation_node(nodes[out_node]) ||
          levels::is_aggregation_node(nodes[in_node]))
        continue;
      ++t.border_cables;
      const auto& leave = leaving(usage[l], link, nodes[in_node].guid);
      const auto& enter = entering(usage[l], link, nodes[in_node].guid);
      t.out += leave.average_octets_s;
      t.in += enter.average_octets_s;
      t.unmeasured += !leave.measured + !enter.measured;
      if (t.note.empty() && levels.level(out_node) < levels.level(in_node) &&
          serves_hosts(out_node)) {
        t.transit = true;
        PortRef port = inside[a] ? link.a : link.b;
        t.note = "border cable " + port_name(fabric, port, names) + " leads down out of the set";
      }
    }

    // An idle set's few management packets say nothing about where its jobs' data goes.
    // Likewise one direction: a set that only sends has no l_con (its few received management
    // packets against the same border noise would give any value, negative ones too).
    if (t.no_history) {
      // no locality, and nothing else to say about traffic that was not measured
    } else if (t.gen + t.con >= kTransitFloor) {
      if (t.gen >= kTransitFloor) t.l_gen = one_minus(t.out, t.gen);
      if (t.con >= kTransitFloor) t.l_con = one_minus(t.in, t.con);
      t.l = one_minus(t.out + t.in, t.gen + t.con);
    } else if (t.note.empty()) {
      t.note = "idle: its hosts sent and received under 1 MB/s";
    }
    const double slack = std::max(kTransitTolerance * (t.gen + t.con), kTransitFloor);
    if (t.note.empty() && !t.no_history && (t.out > t.gen + slack || t.in > t.con + slack)) {
      t.transit = true;
      t.note = t.out > t.gen + slack ? "more data leaves than its hosts send"
                                     : "more data enters than its hosts receive";
    }
    if (set.members.size() == set.hosts.size() && !set.hosts.empty() && t.note.empty())
      t.note = "no switch serves only these hosts: the border is their own cables";
    out.push_back(t);
  }
  return out;
}

}  // namespace ibpm::locality
