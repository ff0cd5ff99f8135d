// SPDX-License-Identifier: MIT

#include "locality/traffic_locality.hpp"

#include <algorithm>
#include <boost/dynamic_bitset.hpp>

#include "locality/down_sets.hpp"
#include "locality/set_cables.hpp"

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
  const auto& links = fabric.links();
  std::vector<SetSums> sums;
  sums.reserve(sets.size());
  SetCableFinder finder(fabric);
  for (const NodeSet& set : sets) {
    SetSums s;
    const SetCables cables = finder.of(set);
    for (const auto& [l, host] : cables.host) {
      const auto& up = leaving(usage[l], links[l], host.node);
      const auto& down = entering(usage[l], links[l], host.node);
      s.gen += up.average_octets_s;
      s.con += down.average_octets_s;
      s.host_unmeasured += !up.measured + !down.measured;
    }
    for (const auto& [l, end] : cables.border) {
      const auto& leave = leaving(usage[l], links[l], end.node);
      const auto& enter = entering(usage[l], links[l], end.node);
      s.out += leave.average_octets_s;
      s.in += enter.average_octets_s;
      s.border_unmeasured += !leave.measured + !enter.measured;
    }
    sums.push_back(s);
  }
  return set_traffic(fabric, down, sets, sums, names);
}

std::vector<SetTraffic> set_traffic(const Fabric& fabric, const DownSets& down,
                                    const std::vector<NodeSet>& sets,
                                    const std::vector<SetSums>& sums, const NodeNameMap* names) {
  const auto& nodes = fabric.nodes();
  std::vector<SetTraffic> out;
  out.reserve(sets.size());
  // A switch below the set that serves no host at all (a spine of empty leaves) carries no
  // traffic of anybody's: its cable is not a way down out of the set.
  const levels::FabricLevels& levels = down.levels();
  auto serves_hosts = [&](std::size_t n) { return levels::is_host(nodes[n]) || down.of(n).any(); };
  SetCableFinder finder(fabric);
  for (std::size_t k = 0; k < sets.size(); ++k) {
    const NodeSet& set = sets[k];
    const SetSums& s = sums[k];
    SetTraffic t;
    t.set = &set;
    const SetCables cables = finder.of(set);
    const boost::dynamic_bitset<>& inside = finder.inside();
    t.gen = s.gen;
    t.con = s.con;
    t.out = s.out;
    t.in = s.in;
    t.unmeasured = s.host_unmeasured + s.border_unmeasured;
    const std::size_t host_directions = 2 * cables.host.size();
    // Unknown is not zero: hosts with no rate in the window are not idle, they are unmeasured.
    t.no_history = host_directions > 0 && s.host_unmeasured >= host_directions;
    if (t.no_history)
      t.note = "no history in this window: none of its hosts' ports has a rate in it";

    if (t.note.empty() && !connected_inside(fabric, set, inside)) {
      t.transit = true;
      t.note = "its parts meet only outside it: data between them counts as out and in";
    }

    t.border_cables = cables.border.size();
    for (const auto& [l, end] : cables.border) {
      const auto [a, b] = finder.ends(l);
      const std::size_t in_node = inside[a] ? a : b, out_node = inside[a] ? b : a;
      if (t.note.empty() && levels.level(out_node) < levels.level(in_node) &&
          serves_hosts(out_node)) {
        t.transit = true;
        t.note = "border cable " + port_name(fabric, end, names) + " leads down out of the set";
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
