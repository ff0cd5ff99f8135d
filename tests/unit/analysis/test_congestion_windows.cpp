// SPDX-License-Identifier: MIT
// The congestion trees over windows a user asks for ("the last N minutes"), not windows aligned
// with the congestion: on the 8-host fat tree with min-hop tables, congestion episodes whose
// truth the congestion model gives (sim/congestion_model.hpp), turned into the RRD rows the
// sweeps would have written (each row the time-weighted mix of what the model delivers before,
// during and after an episode, the episodes starting half a row off the row boundaries), then
// read as the history layer reads rows (history_from), measured per link (link_usage) and
// analysed (find_congestion). The windows start before, at and after an episode's start and end
// after it, at the 1 s and the default 60 s RRD step, and one window holds two episodes: the
// roots and victims found must match the model's with precision and recall of at least 0.95.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <limits>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "analysis/congestion_analysis.hpp"
#include "congestion_fixture.hpp"
#include "counters/counter.hpp"
#include "history/fetched_rows.hpp"
#include "history/link_usage.hpp"
#include "sim/congestion_model.hpp"
#include "state/rrd_layout.hpp"
#include "topology/link_speed_check.hpp"

using namespace ibpm;
using namespace ibpm::analysis;

namespace congestion_windows_test {

// A flow between two hosts, its demand a share of a link's capacity.
struct HostFlow {
  std::string from, to;
  double demand_share = 0;
};

// Flows that run from `start` to `end` (seconds).
struct Episode {
  std::vector<HostFlow> flows;
  double start = 0, end = 0;
};

// The model's truth: the roots and victims of every episode's flows (with the background).
struct Truth {
  std::set<PortRef> roots, victims;
};

class Windows {
 public:
  Windows(std::vector<HostFlow> background, std::vector<Episode> episodes)
      : background_(std::move(background)), episodes_(std::move(episodes)) {
    for (const Node& node : tree_.fabric().nodes())
      node.for_each_port([&](const Port& port) {
        if (!port.link) return;
        const PortRef ref{node.guid, port.number};
        const topology::LinkRate rate =
            topology::active_rate(tree_.fabric(), tree_.fabric().links()[*port.link]);
        REQUIRE(rate.width);
        REQUIRE(rate.speed);
        capacity_[ref] = static_cast<double>(link_capacity_bps(*rate.width, *rate.speed)) / 8;
      });
  }

  const test::RoutedTree& tree() const { return tree_; }

  // What the model makes of the background and the episodes running at time t.
  sim::CongestionOutcome outcome_at(double t, std::vector<PortRef>& ports) const {
    std::vector<HostFlow> flows = background_;
    for (const Episode& e : episodes_)
      if (e.start <= t && t < e.end) flows.insert(flows.end(), e.flows.begin(), e.flows.end());
    return solve(flows, ports);
  }

  // The union of the episodes' truths; the background alone is clean.
  Truth truth() const {
    std::vector<PortRef> ports;
    const sim::CongestionOutcome quiet = solve(background_, ports);
    REQUIRE_FALSE(quiet.congested());
    Truth truth;
    for (const Episode& e : episodes_) {
      const sim::CongestionOutcome during = outcome_at((e.start + e.end) / 2, ports);
      REQUIRE(during.congested());
      for (std::size_t p = 0; p < ports.size(); ++p) {
        if (during.ports[p].role == sim::PortRole::root) truth.roots.insert(ports[p]);
        if (during.ports[p].role == sim::PortRole::victim) truth.victims.insert(ports[p]);
      }
    }
    return truth;
  }

  // The egress loads of the window [start, end] at RRD step `step`, rows kept as
  // ibpm-congestion keeps them; without_rows: the window's averages alone.
  EgressLoads loads(std::time_t start, std::time_t end, std::time_t step,
                    bool without_rows = false) const {
    // As rrd_fetch answers: whole rows from the one holding the start to the one holding the end.
    const std::time_t first = start / step * step;
    const std::time_t last = (end + step - 1) / step * step;
    std::map<PortRef, history::FetchedRows> files;
    for (const auto& [port, capacity] : capacity_) {
      history::FetchedRows& rows = files[port];
      rows.start = first;
      rows.end = last;
      rows.step = static_cast<unsigned long>(step);
      rows.sources = state::kSourceCount;
      for (std::size_t i = 0; i < state::kSourceCount; ++i)
        rows.names.emplace_back(state::source_name(i));
      rows.values.assign(rows.rows() * rows.sources, 0.0);
    }
    for (std::size_t r = 0; r < files.begin()->second.rows(); ++r)
      add_row(files, r, static_cast<double>(first + static_cast<std::time_t>(r) * step),
              static_cast<double>(step));
    std::map<PortRef, history::PortHistory> histories;
    for (const auto& [port, rows] : files)
      histories[port] = history::history_from(rows, nullptr, !without_rows);
    const std::vector<history::LinkUsage> usage =
        history::link_usage(tree_.fabric(), [&](PortRef port) { return histories.at(port); });
    return egress_loads(usage);
  }

 private:
  sim::CongestionOutcome solve(const std::vector<HostFlow>& flows,
                               std::vector<PortRef>& ports) const {
    ports.clear();
    std::map<PortRef, std::size_t> index;
    std::vector<double> capacity;
    std::vector<sim::ModelFlow> model;
    for (const HostFlow& f : flows) {
      const std::vector<PortRef> hops = path(f.from, f.to);
      sim::ModelFlow flow;
      flow.demand = f.demand_share * capacity_.at(hops.front());
      for (const PortRef& hop : hops) {
        const auto [it, added] = index.try_emplace(hop, ports.size());
        if (added) {
          ports.push_back(hop);
          capacity.push_back(capacity_.at(hop));
        }
        flow.path.push_back(it->second);
      }
      model.push_back(std::move(flow));
    }
    return sim::solve_congestion(capacity, model);
  }

  // The egress ports a flow leaves from, the host's port first, along the tables.
  std::vector<PortRef> path(const std::string& from, const std::string& to) const {
    std::vector<PortRef> hops{tree_.host(from)};
    const Fabric& fabric = tree_.fabric();
    const unsigned lid = *fabric.find_port(tree_.host(to))->lid;
    for (PortRef at = hops.back();;) {
      const auto peer = fabric.remote(at);
      REQUIRE(peer);
      const Node& node = fabric.node(peer->node);
      if (node.type != NodeType::sw) break;
      const routes::RouteMap::Step step = tree_.map().step(fabric.index_of(node.guid), lid);
      REQUIRE(step.forwards);
      at = {node.guid, step.egress};
      hops.push_back(at);
    }
    return hops;
  }

  // Row r covers [row_start, row_start + step): each port's data and wait rates, the mix of
  // what the model delivers over the row (the sweeps' counters advance with time).
  void add_row(std::map<PortRef, history::FetchedRows>& files, std::size_t r, double row_start,
               double step) const {
    std::vector<double> cuts{row_start, row_start + step};
    for (const Episode& e : episodes_)
      for (double t : {e.start, e.end})
        if (row_start < t && t < row_start + step) cuts.push_back(t);
    std::sort(cuts.begin(), cuts.end());
    std::map<PortRef, std::pair<double, double>> sums;  // words, wait ticks
    for (std::size_t k = 0; k + 1 < cuts.size(); ++k) {
      const double seconds = cuts[k + 1] - cuts[k];
      std::vector<PortRef> ports;
      const sim::CongestionOutcome outcome = outcome_at((cuts[k] + cuts[k + 1]) / 2, ports);
      for (std::size_t p = 0; p < ports.size(); ++p) {
        const sim::PortOutcome& port = outcome.ports[p];
        const double tick = counters::default_xmit_wait_tick(port.capacity * 8);
        sums[ports[p]].first += port.carried / 4 * seconds;
        sums[ports[p]].second += port.lost_share / tick * seconds;
      }
    }
    const std::size_t data = state::source_index(counters::Counter::xmit_data);
    const std::size_t wait = state::source_index(counters::Counter::xmit_wait);
    for (const auto& [port, sum] : sums) {
      history::FetchedRows& rows = files.at(port);
      rows.values[r * rows.sources + data] = sum.first / step;
      rows.values[r * rows.sources + wait] = sum.second / step;
    }
  }

  test::RoutedTree tree_;
  std::map<PortRef, double> capacity_;
  std::vector<HostFlow> background_;
  std::vector<Episode> episodes_;
};

std::set<PortRef> with_role(const CongestionReport& report, CongestionRole role) {
  std::set<PortRef> found;
  for (const CongestedPort& p : report.ports)
    if (p.role == role) found.insert(p.port);
  return found;
}

std::string describe(const test::RoutedTree& tree, const std::set<PortRef>& ports) {
  std::string out;
  for (const PortRef& p : ports) out += " " + tree.name(p);
  return out;
}

// Precision and recall of `found` against `truth`, both at least 0.95.
void check_found(const test::RoutedTree& tree, const char* what, const std::set<PortRef>& truth,
                 const std::set<PortRef>& found) {
  std::size_t both = 0;
  for (const PortRef& p : found) both += truth.count(p);
  INFO(what << " truth:" << describe(tree, truth));
  INFO(what << " found:" << describe(tree, found));
  REQUIRE(!truth.empty());
  REQUIRE(!found.empty());
  CHECK(static_cast<double>(both) / static_cast<double>(found.size()) >= 0.95);
  CHECK(static_cast<double>(both) / static_cast<double>(truth.size()) >= 0.95);
}

void check_against_truth(const Windows& windows, const EgressLoads& loads) {
  const CongestionReport report = find_congestion(windows.tree().map(), loads, {});
  const Truth truth = windows.truth();
  check_found(windows.tree(), "roots", truth.roots, with_role(report, CongestionRole::root));
  check_found(windows.tree(), "victims", truth.victims, with_role(report, CongestionRole::victim));
}

// The incast of issue's shape: both hosts of leaf01, leaf02 and leaf03 into cn0008 (leaf04).
// The tables send every flow to cn0008 through one spine: its port down to leaf04 is the first
// full port on each path, the model's one root; the leaf uplinks and the senders wait behind it.
std::vector<HostFlow> incast_flows() {
  std::vector<HostFlow> flows;
  for (const char* host : {"cn0001", "cn0002", "cn0003", "cn0004", "cn0005", "cn0006"})
    flows.push_back({host, "cn0008", 0.4});
  return flows;
}

// cn0007 and cn0008 (leaf04) send to two hosts leaf04 reaches through one uplink: that uplink is
// the root, the two host ports its victims.
std::vector<HostFlow> hot_uplink_flows(const test::RoutedTree& tree) {
  const PortRef hot = tree.egress_toward("leaf04", "cn0001");
  std::string second;
  for (const char* h : {"cn0003", "cn0004", "cn0005", "cn0006"})
    if (second.empty() && tree.egress_toward("leaf04", h) == hot) second = h;
  REQUIRE(!second.empty());
  return {{"cn0007", "cn0001", 0.8}, {"cn0008", second, 0.8}};
}

// Traffic that runs all along and never congests: cn0001 to cn0003.
std::vector<HostFlow> background() { return {{"cn0001", "cn0003", 0.3}}; }

void check_one_episode(std::time_t step) {
  // The episode runs ten rows, from half a row past a boundary.
  const double s = static_cast<double>(step);
  const double start = std::floor(1'700'000'000.0 / s) * s + s / 2;
  const double length = 10 * s;
  const Windows windows(background(), {{incast_flows(), start, start + length}});
  const Truth truth = windows.truth();
  REQUIRE(truth.roots.size() == 1);
  const PortRef root = *truth.roots.begin();
  CHECK(windows.tree().peer_node(root) == "leaf04");  // the spine's port down to leaf04

  const auto end = static_cast<std::time_t>(start + length) + 2 * step;  // ends after it
  struct Case {
    const char* name;
    std::time_t start;
  };
  for (const Case& c : {Case{"starts before", static_cast<std::time_t>(start - 2 * length)},
                        Case{"starts at", static_cast<std::time_t>(start)},
                        Case{"starts after", static_cast<std::time_t>(start + length / 3)}}) {
    INFO("the window " << c.name << " the episode, step " << step << " s");
    check_against_truth(windows, windows.loads(c.start, end, step));
  }

  // Why rows: over the window that starts before, the root's average is diluted under the busy
  // threshold, and the averages alone name the waiting uplinks as roots instead.
  const EgressLoads averages =
      windows.loads(static_cast<std::time_t>(start - 2 * length), end, step, true);
  CHECK(*averages.at(root).utilization < CongestionThresholds{}.busy);
  const CongestionReport diluted = find_congestion(windows.tree().map(), averages, {});
  CHECK_FALSE(with_role(diluted, CongestionRole::root).count(root));
}

void check_two_episodes(std::time_t step) {
  const double s = static_cast<double>(step);
  const double start = std::floor(1'700'000'000.0 / s) * s + s / 2;
  const double length = 10 * s;
  test::RoutedTree tree;
  const Windows windows(background(),
                        {{incast_flows(), start, start + length},
                         {hot_uplink_flows(tree), start + 2 * length, start + 3 * length}});
  const Truth truth = windows.truth();
  CHECK(truth.roots.size() == 2);
  for (const PortRef& p : truth.roots) CHECK_FALSE(truth.victims.count(p));
  INFO("two episodes, step " << step << " s");
  check_against_truth(windows,
                      windows.loads(static_cast<std::time_t>(start - length),
                                    static_cast<std::time_t>(start + 3 * length) + 2 * step, step));
}

}  // namespace congestion_windows_test

using namespace congestion_windows_test;

TEST_CASE("congestion windows: the roots whatever the window's start, at the 1 s step") {
  check_one_episode(1);
}

TEST_CASE("congestion windows: the roots whatever the window's start, at the 60 s step") {
  check_one_episode(60);
}

TEST_CASE("congestion windows: two episodes in one window, each with its own root") {
  check_two_episodes(1);
  check_two_episodes(60);
}

TEST_CASE("congestion windows: a port is waiting in the rows its PortXmitWait sat at its maximum") {
  // leaf01's uplink toward cn0008 waits behind the full spine port for a while, then its 32-bit
  // counter is full: its rows say nothing of the wait but the saturated gauge. The spine port
  // still full, the uplink is its victim, not a port without congestion.
  const test::RoutedTree tree;
  const PortRef up = tree.egress_toward("leaf01", "cn0008");
  const PortRef down = tree.egress_toward(tree.peer_node(up), "cn0008");
  EgressLoads loads;
  EgressLoad& u = loads[up];
  u.utilization = 0.5;
  u.wait_saturated = true;
  u.rows_start = 1000;
  u.rows_step = 60;
  const float nan = std::numeric_limits<float>::quiet_NaN();
  u.rows = {{0.5F, 0.0F, false}, {0.5F, nan, true}, {0.5F, nan, true}};
  EgressLoad& d = loads[down];
  d.utilization = 0.7;
  d.rows_start = 1000;
  d.rows_step = 60;
  d.rows = {{0.1F, 0.0F, false}, {1.0F, 0.0F, false}, {1.0F, 0.0F, false}};
  CHECK(has_xmit_wait(loads));
  const CongestionReport report = find_congestion(tree.map(), loads, {});
  CHECK(with_role(report, CongestionRole::root) == std::set<PortRef>{down});
  CHECK(with_role(report, CongestionRole::victim) == std::set<PortRef>{up});
  for (const CongestedPort& p : report.ports)
    if (p.port == up) CHECK(p.wait_saturated);
}
