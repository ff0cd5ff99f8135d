// SPDX-License-Identifier: MIT
// Max-min fair sharing by progressive filling: every active flow's rate rises by the same step
// until a flow reaches its demand (it leaves, uncut) or a port runs out of capacity (every
// active flow through it is frozen there: cut, with that port as its bottleneck). Repeat until
// no flow is active. Each round freezes at least one flow, so it ends.
//
// Which port is the bottleneck when several on a flow's path fill in the same round: the first
// on the path. A port after it never receives more than the first one lets through, so it is
// full without holding anything back (two leaves' traffic through one spine fills the uplink
// and the spine's downlink alike; the uplink is where the data waits).
//
// Lost share (what PortXmitWait counts): a cut flow's sender keeps offering its demand, so
// the shortfall (demand - delivered) stays queued behind the bottleneck and every port before
// it on the path holds data it has no credits to send. Port p waits
//   sum over cut flows f through p before f's bottleneck of (demand_f - delivered_f) / capacity_p
// of the time, but never more than the time it does not send:
//   lost_share = min(1 - carried / capacity, that sum).
// So a port's sending and waiting together never exceed the interval (the bound the project's
// XmitWait tick rests on), and a root (carrying at capacity) loses nothing: its receiver
// drains at line rate. A port that is a root for some flows and lies before another root on
// other flows keeps the root role; the rule gives it whatever time it has left.
#include "sim/congestion_model.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

namespace ibpm::sim {

namespace {

// Rates are sums of doubles: a demand or a capacity counts as met within this fraction.
constexpr double kRelativeSlack = 1e-9;

void check_congestion_input(const std::vector<double>& capacity,
                            const std::vector<ModelFlow>& flows) {
  for (double c : capacity)
    if (!(c > 0) || !std::isfinite(c))
      throw std::invalid_argument("congestion model: a port capacity is not positive");
  for (const ModelFlow& flow : flows) {
    if (!(flow.demand >= 0) || !std::isfinite(flow.demand))
      throw std::invalid_argument("congestion model: a flow's demand is negative");
    for (std::size_t p : flow.path)
      if (p >= capacity.size())
        throw std::invalid_argument("congestion model: a path names port " + std::to_string(p) +
                                    " of " + std::to_string(capacity.size()));
  }
}

// Delivered rates and bottlenecks by progressive filling.
void fill_fairly(const std::vector<double>& capacity, const std::vector<ModelFlow>& flows,
                 std::vector<FlowOutcome>& out) {
  std::vector<double> remaining = capacity;
  std::vector<std::size_t> active_through(capacity.size(), 0);
  std::vector<bool> active(flows.size(), false);
  std::size_t active_count = 0;
  for (std::size_t f = 0; f < flows.size(); ++f) {
    if (flows[f].demand > 0 && !flows[f].path.empty()) {
      active[f] = true;
      ++active_count;
      for (std::size_t p : flows[f].path) ++active_through[p];
    } else {
      out[f].delivered = flows[f].demand;  // nothing to send, or no port to cross
    }
  }
  auto freeze = [&](std::size_t f) {
    active[f] = false;
    --active_count;
    for (std::size_t p : flows[f].path) --active_through[p];
  };

  while (active_count > 0) {
    double step = std::numeric_limits<double>::infinity();
    for (std::size_t p = 0; p < capacity.size(); ++p)
      if (active_through[p] > 0)
        step = std::min(step, std::max(0.0, remaining[p]) / active_through[p]);
    for (std::size_t f = 0; f < flows.size(); ++f)
      if (active[f]) step = std::min(step, flows[f].demand - out[f].delivered);
    for (std::size_t f = 0; f < flows.size(); ++f) {
      if (!active[f]) continue;
      out[f].delivered += step;
      for (std::size_t p : flows[f].path) remaining[p] -= step;
    }
    // Met demands first: a flow that reaches its demand as a port fills is not cut.
    for (std::size_t f = 0; f < flows.size(); ++f)
      if (active[f] && flows[f].demand - out[f].delivered <= kRelativeSlack * flows[f].demand) {
        out[f].delivered = flows[f].demand;
        freeze(f);
      }
    std::vector<bool> full(capacity.size(), false);
    for (std::size_t p = 0; p < capacity.size(); ++p)
      full[p] = active_through[p] > 0 && remaining[p] <= kRelativeSlack * capacity[p];
    for (std::size_t f = 0; f < flows.size(); ++f) {
      if (!active[f]) continue;
      const auto& path = flows[f].path;
      const auto first_full =
          std::find_if(path.begin(), path.end(), [&](std::size_t p) { return full[p]; });
      if (first_full == path.end()) continue;
      out[f].bottleneck = *first_full;
      freeze(f);
    }
  }
}

}  // namespace

std::string_view to_string(PortRole role) {
  switch (role) {
    case PortRole::root:
      return "root";
    case PortRole::victim:
      return "victim";
    case PortRole::clean:
      break;
  }
  return "clean";
}

bool CongestionOutcome::congested() const {
  return std::any_of(flows.begin(), flows.end(), [](const FlowOutcome& f) { return f.cut(); });
}

CongestionOutcome solve_congestion(const std::vector<double>& capacity,
                                   const std::vector<ModelFlow>& flows) {
  check_congestion_input(capacity, flows);
  CongestionOutcome outcome;
  outcome.flows.resize(flows.size());
  for (std::size_t f = 0; f < flows.size(); ++f) outcome.flows[f].demand = flows[f].demand;
  fill_fairly(capacity, flows, outcome.flows);

  outcome.ports.resize(capacity.size());
  std::vector<double> shortfall_before(capacity.size(), 0);  // of cut flows, before their root
  std::vector<bool> waits(capacity.size(), false);
  for (std::size_t p = 0; p < capacity.size(); ++p) outcome.ports[p].capacity = capacity[p];
  for (std::size_t f = 0; f < flows.size(); ++f) {
    const FlowOutcome& result = outcome.flows[f];
    for (std::size_t p : flows[f].path) {
      outcome.ports[p].offered += result.demand;
      outcome.ports[p].carried += result.delivered;
    }
    if (!result.cut()) continue;
    outcome.ports[*result.bottleneck].role = PortRole::root;
    for (std::size_t p : flows[f].path) {
      if (p == *result.bottleneck) break;
      shortfall_before[p] += result.demand - result.delivered;
      waits[p] = true;
    }
  }
  for (std::size_t p = 0; p < capacity.size(); ++p) {
    PortOutcome& port = outcome.ports[p];
    if (waits[p] && port.role != PortRole::root) port.role = PortRole::victim;
    const double idle = std::max(0.0, 1 - port.carried / port.capacity);
    port.lost_share = std::min(idle, shortfall_before[p] / port.capacity);
  }
  return outcome;
}

}  // namespace ibpm::sim
