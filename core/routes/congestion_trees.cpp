// SPDX-License-Identifier: MIT

#include "routes/congestion_trees.hpp"

#include <algorithm>
#include <set>

namespace ibpm::routes {

bool has_xmit_wait(const EgressLoads& loads) {
  return std::any_of(loads.begin(), loads.end(),
                     [](const auto& entry) { return entry.second.wait_share.has_value(); });
}

const char* to_string(CongestionRole role) {
  return role == CongestionRole::root ? "root" : "victim";
}

namespace {

// Follows the routes downstream of waiting ports to the roots they wait for, each port's roots
// found once.
class RootFinder {
 public:
  RootFinder(const RouteMap& map, const EgressLoads& loads, const CongestionThresholds& thresholds)
      : map_(map), loads_(loads), thresholds_(thresholds) {}

  bool waits(const PortRef& port) const {
    const EgressLoad* load = find(port);
    return load && load->wait_share && *load->wait_share > thresholds_.wait;
  }

  bool full(const PortRef& port) const {
    const EgressLoad* load = find(port);
    return load && load->utilization && *load->utilization >= thresholds_.busy;
  }

  // The roots a waiting port waits for; the port itself when nothing downstream is congested.
  const std::set<PortRef>& roots_of(const PortRef& port) {
    if (const auto known = roots_.find(port); known != roots_.end()) return known->second;
    std::set<PortRef> found;
    if (on_path_.insert(port).second) {
      for (const PortRef& next : next_egresses(port)) {
        if (waits(next)) {
          if (on_path_.count(next)) continue;  // a routing loop: not followed round again
          const std::set<PortRef>& beyond = roots_of(next);
          found.insert(beyond.begin(), beyond.end());
        } else if (full(next)) {
          found.insert(next);
        }
      }
      on_path_.erase(port);
    }
    if (found.empty()) found.insert(port);
    return roots_.emplace(port, std::move(found)).first->second;
  }

 private:
  const EgressLoad* find(const PortRef& port) const {
    const auto found = loads_.find(port);
    return found == loads_.end() ? nullptr : &found->second;
  }

  // Every LID of every host endpoint: the destinations traffic goes to.
  template <typename Visit>
  void for_each_destination(Visit visit) const {
    constexpr unsigned kMaxLmc = 4;  // wider LID ranges: the base LID stands for them
    for (const Endpoint& endpoint : map_.endpoints()) {
      const unsigned lids = 1u << (endpoint.lmc <= kMaxLmc ? endpoint.lmc : 0);
      for (unsigned l = 0; l < lids; ++l) visit(endpoint.lid + l, endpoint.port);
    }
  }

  // For the destinations routed out of `port`, the egress the next switch sends them out of.
  std::set<PortRef> next_egresses(const PortRef& port) const {
    std::set<PortRef> next;
    const auto& nodes = map_.fabric().nodes();
    const std::size_t at = map_.fabric().index_of(port.node);
    const auto peer = map_.peer(at, port.port);
    if (!peer || nodes[peer->first].type != NodeType::sw) return next;  // delivered to a host
    const bool from_switch = nodes[at].type == NodeType::sw;
    for_each_destination([&](unsigned lid, const PortRef& owner) {
      if (from_switch) {
        const RouteMap::Step here = map_.step(at, lid);
        if (!here.forwards || here.egress != port.port) return;
      } else if (owner == port) {
        return;  // a host does not send to itself
      }
      const RouteMap::Step there = map_.step(peer->first, lid);
      if (there.forwards) next.insert({nodes[peer->first].guid, there.egress});
    });
    return next;
  }

  const RouteMap& map_;
  const EgressLoads& loads_;
  const CongestionThresholds& thresholds_;
  std::map<PortRef, std::set<PortRef>> roots_;
  std::set<PortRef> on_path_;
};

CongestedPort congested_port(const PortRef& port, CongestionRole role, const EgressLoads& loads) {
  CongestedPort out;
  out.port = port;
  out.role = role;
  if (const auto found = loads.find(port); found != loads.end()) {
    out.lost_share = found->second.wait_share.value_or(0);
    out.utilization = found->second.utilization;
  }
  return out;
}

// The jobs at the root cause the tree; those only at its victims suffer it.
void name_jobs(CongestionReport& report, CongestionTree& tree,
               const std::map<PortRef, std::vector<std::string>>& job_ports) {
  auto jobs_at = [&](std::size_t index) {
    const auto found = job_ports.find(report.ports[index].port);
    return found == job_ports.end() ? std::vector<std::string>{} : found->second;
  };
  const std::vector<std::string> at_root = jobs_at(tree.root);
  const std::set<std::string> cause(at_root.begin(), at_root.end());
  std::set<std::string> suffer;
  for (std::size_t victim : tree.victims)
    for (const std::string& job : jobs_at(victim))
      if (!cause.count(job)) suffer.insert(job);
  tree.cause_jobs.assign(cause.begin(), cause.end());
  tree.suffer_jobs.assign(suffer.begin(), suffer.end());
}

}  // namespace

CongestionReport find_congestion(const RouteMap& map, const EgressLoads& loads,
                                 const CongestionThresholds& thresholds,
                                 const std::map<PortRef, std::vector<std::string>>* job_ports) {
  RootFinder finder(map, loads, thresholds);
  std::map<PortRef, std::set<PortRef>> roots_by_victim;
  std::set<PortRef> roots;
  for (const auto& [port, load] : loads) {
    if (!finder.waits(port)) continue;
    const std::set<PortRef>& found = finder.roots_of(port);
    roots.insert(found.begin(), found.end());
    if (!found.count(port)) roots_by_victim.emplace(port, found);
  }

  CongestionReport report;
  std::map<PortRef, std::size_t> index;
  std::set<PortRef> listed = roots;
  for (const auto& [victim, of] : roots_by_victim) listed.insert(victim);
  for (const PortRef& port : listed) {
    index.emplace(port, report.ports.size());
    report.ports.push_back(congested_port(
        port, roots.count(port) ? CongestionRole::root : CongestionRole::victim, loads));
  }

  std::map<PortRef, CongestionTree> trees;
  for (const PortRef& root : roots) trees[root].root = index.at(root);
  for (const auto& [victim, of] : roots_by_victim)
    for (const PortRef& root : of) trees[root].victims.push_back(index.at(victim));
  for (auto& [root, tree] : trees) report.trees.push_back(std::move(tree));
  std::stable_sort(report.trees.begin(), report.trees.end(),
                   [](const CongestionTree& a, const CongestionTree& b) {
                     return a.victims.size() > b.victims.size();
                   });
  for (std::size_t t = 0; t < report.trees.size(); ++t) {
    CongestionTree& tree = report.trees[t];
    std::stable_sort(tree.victims.begin(), tree.victims.end(), [&](std::size_t a, std::size_t b) {
      return report.ports[a].lost_share > report.ports[b].lost_share;
    });
    report.ports[tree.root].trees.push_back(t);
    for (std::size_t victim : tree.victims) report.ports[victim].trees.push_back(t);
    if (job_ports) name_jobs(report, tree, *job_ports);
  }
  return report;
}

}  // namespace ibpm::routes
