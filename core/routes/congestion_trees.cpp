// SPDX-License-Identifier: MIT

#include "routes/congestion_trees.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>

namespace ibpm::routes {

bool has_xmit_wait(const EgressLoads& loads) {
  return std::any_of(loads.begin(), loads.end(), [](const auto& entry) {
    return entry.second.wait_share.has_value() || entry.second.wait_saturated;
  });
}

const char* to_string(CongestionRole role) {
  return role == CongestionRole::root ? "root" : "victim";
}

namespace {

// A moment of the window: the end of a row, or the whole window for loads without rows.
constexpr std::time_t kWholeWindow = std::numeric_limits<std::time_t>::min();

// What a port did at a moment.
struct LoadAt {
  std::optional<double> utilization;
  std::optional<double> wait_share;
  bool wait_saturated = false;
};

std::optional<double> known(float value) {
  return std::isnan(value) ? std::nullopt : std::optional<double>(value);
}

// The port's row that holds the moment (nothing outside its rows), or its averages when it has
// no rows or the moment is the whole window.
LoadAt load_at(const EgressLoad& load, std::time_t moment) {
  if (moment == kWholeWindow || load.rows.empty() || load.rows_step <= 0)
    return {load.utilization, load.wait_share, load.wait_saturated};
  if (moment <= load.rows_start) return {};
  const auto row =
      static_cast<std::size_t>((moment - load.rows_start + load.rows_step - 1) / load.rows_step) -
      1;
  if (row >= load.rows.size()) return {};
  const RowLoad& r = load.rows[row];
  return {known(r.utilization), known(r.wait_share), r.wait_saturated};
}

bool waiting(const LoadAt& load, const CongestionThresholds& thresholds) {
  return load.wait_saturated || (load.wait_share && *load.wait_share > thresholds.wait);
}

// The moments some port waited at (each row's end), and the ports that waited at each.
std::map<std::time_t, std::vector<PortRef>> waiting_moments(
    const EgressLoads& loads, const CongestionThresholds& thresholds) {
  std::map<std::time_t, std::vector<PortRef>> moments;
  for (const auto& [port, load] : loads) {
    if (load.rows.empty() || load.rows_step <= 0) {
      if (waiting(load_at(load, kWholeWindow), thresholds)) moments[kWholeWindow].push_back(port);
      continue;
    }
    for (std::size_t r = 0; r < load.rows.size(); ++r) {
      const RowLoad& row = load.rows[r];
      if (waiting({known(row.utilization), known(row.wait_share), row.wait_saturated}, thresholds))
        moments[load.rows_start + static_cast<std::time_t>(r + 1) * load.rows_step].push_back(port);
    }
  }
  return moments;
}

// Follows the routes downstream of waiting ports to the roots they wait for at one moment, each
// port's roots found once a moment.
class RootFinder {
 public:
  RootFinder(const RouteMap& map, const EgressLoads& loads, const CongestionThresholds& thresholds)
      : map_(map), loads_(loads), thresholds_(thresholds) {}

  void at(std::time_t moment) {
    moment_ = moment;
    roots_.clear();
  }

  bool waits(const PortRef& port) const {
    const EgressLoad* load = find(port);
    return load && waiting(load_at(*load, moment_), thresholds_);
  }

  bool full(const PortRef& port) const {
    const EgressLoad* load = find(port);
    if (!load) return false;
    const LoadAt now = load_at(*load, moment_);
    return now.utilization && *now.utilization >= thresholds_.busy;
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

  // For the destinations routed out of `port`, the egress the next switch sends them out of
  // (the routes do not change between moments: found once).
  const std::set<PortRef>& next_egresses(const PortRef& port) {
    if (const auto known = next_.find(port); known != next_.end()) return known->second;
    std::set<PortRef>& next = next_[port];
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
  std::time_t moment_ = kWholeWindow;
  std::map<PortRef, std::set<PortRef>> roots_;
  std::map<PortRef, std::set<PortRef>> next_;
  std::set<PortRef> on_path_;
};

// The roots of each port that waited, over every moment it waited at. At each moment a root is
// full (a port full without waiting) or a tip (a waiting port with nothing congested beyond it).
// A tip that waited for full roots at other moments stands for those roots: it was a tip only
// while its own root was full for part of a row.
class JoinedRoots {
 public:
  void add(const PortRef& port, const PortRef& root, bool tip) {
    (tip ? tips_ : full_)[port].insert(root);
  }

  std::map<PortRef, std::set<PortRef>> resolve() {
    std::map<PortRef, std::set<PortRef>> out;
    for (const auto& [port, roots] : full_) out.emplace(port, roots_of(port));
    for (const auto& [port, roots] : tips_) out.emplace(port, roots_of(port));
    return out;
  }

 private:
  const std::set<PortRef>& roots_of(const PortRef& port) {
    if (const auto done = resolved_.find(port); done != resolved_.end()) return done->second;
    if (!in_progress_.insert(port).second) return none_;  // a loop of tips: ends here
    std::set<PortRef> roots;
    if (const auto full = full_.find(port); full != full_.end()) roots = full->second;
    if (const auto tips = tips_.find(port); tips != tips_.end())
      for (const PortRef& tip : tips->second) {
        if (tip == port) continue;
        const std::set<PortRef>& beyond = roots_of(tip);
        roots.insert(beyond.begin(), beyond.end());
      }
    if (roots.empty()) roots.insert(port);  // a tip at every moment it waited: its own root
    in_progress_.erase(port);
    return resolved_.emplace(port, std::move(roots)).first->second;
  }

  std::map<PortRef, std::set<PortRef>> full_, tips_, resolved_;
  std::set<PortRef> in_progress_;
  const std::set<PortRef> none_{};
};

CongestedPort congested_port(const PortRef& port, CongestionRole role, const EgressLoads& loads) {
  CongestedPort out;
  out.port = port;
  out.role = role;
  if (const auto found = loads.find(port); found != loads.end()) {
    out.lost_share = found->second.wait_share.value_or(0);
    out.wait_saturated = found->second.wait_saturated;
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
  JoinedRoots joined;
  for (const auto& [moment, waiting] : waiting_moments(loads, thresholds)) {
    finder.at(moment);
    for (const PortRef& port : waiting)
      for (const PortRef& root : finder.roots_of(port)) joined.add(port, root, finder.waits(root));
  }
  std::map<PortRef, std::set<PortRef>> roots_by_victim;
  std::set<PortRef> roots;
  for (auto& [port, found] : joined.resolve()) {
    roots.insert(found.begin(), found.end());
    if (!found.count(port)) roots_by_victim.emplace(port, std::move(found));
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
