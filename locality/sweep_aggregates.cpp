// SPDX-License-Identifier: MIT

#include "locality/sweep_aggregates.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "fabric/graph.hpp"
#include "levels/fabric_levels.hpp"
#include "locality/down_sets.hpp"
#include "locality/node_sets.hpp"
#include "locality/subtree_aggregates.hpp"
#include "poll/poll_options.hpp"
#include "poll/target.hpp"
#include "state/port_store.hpp"
#include "sweep/fabric_targets.hpp"

namespace ibpm::locality {

namespace {

// A data counter's rate as the port's RRD file derives it: not from a saturated counter (written
// unknown) nor across a reset (an unknown rate there too); octets per second, NaN when unknown.
double file_rate(const poll::PortRates& rates, counters::Counter counter) {
  constexpr double kUnknown = std::numeric_limits<double>::quiet_NaN();
  const auto bit = counters::counter_bit(counter);
  if (rates.baseline || (rates.saturated & bit) || (rates.reset_seen & bit)) return kUnknown;
  const std::optional<counters::Rate> rate = rates.of(counter);
  if (!rate || rate->lower_bound) return kUnknown;
  return rate->per_second * 4.0;  // 4-octet words
}

// This run's data rates of the ports it polled, sorted by port: 32 bytes a port in one block
// (the sweep's memory per port has a budget: tests/sweep/memory_per_port.sh).
struct PortRates {
  PortRef port;
  float xmit = 0, rcv = 0;  // octets per second, NaN when unknown
};

}  // namespace

std::string write_sweep_aggregates(const sweep::SweepOptions& options,
                                   const sweep::SweepResult& result,
                                   std::chrono::steady_clock::time_point deadline) {
  if (sweep::is_repoll(options) || !result.first_read || !result.last_read) return "";
  if (!result.store.failure.empty()) return "";
  const Fabric& fabric = result.topology.fabric;
  std::vector<PortRates> mine;
  mine.reserve(result.results.size());
  bool any_rate = false;
  for (const poll::PortResult& r : result.results) {
    if (!r.sample.answered || !r.state_error.empty()) continue;
    PortRates rates{{r.target->node, r.target->port},
                    static_cast<float>(file_rate(r.rates, counters::Counter::xmit_data)),
                    static_cast<float>(file_rate(r.rates, counters::Counter::rcv_data))};
    any_rate = any_rate || !std::isnan(rates.xmit) || !std::isnan(rates.rcv);
    mine.push_back(rates);
  }
  std::sort(mine.begin(), mine.end(),
            [](const PortRates& a, const PortRates& b) { return a.port < b.port; });
  const auto find = [&](const PortRef& port) -> const PortRates* {
    const auto at =
        std::lower_bound(mine.begin(), mine.end(), port,
                         [](const PortRates& r, const PortRef& p) { return r.port < p; });
    return at != mine.end() && at->port == port ? &*at : nullptr;
  };
  // Whether the sweeps (of every scope) poll the port: as sweep::fabric_port_targets chooses.
  const auto polled = [&](const PortRef& ref) {
    const Node& node = fabric.node(ref.node);
    return sweep::accepts(options.types, node.type) && poll::agent_lid(node, ref.port);
  };
  const auto known = [](float value) -> std::optional<double> {
    return std::isnan(value) ? std::nullopt : std::optional<double>(value);
  };
  const auto rate = [&](const PortRef& from, const PortRef& to) -> std::optional<double> {
    if (polled(from)) {
      const PortRates* r = find(from);
      return r ? known(r->xmit) : std::nullopt;
    }
    if (!polled(to)) return std::nullopt;
    const PortRates* r = find(to);
    return r ? known(r->rcv) : std::nullopt;
  };

  const levels::FabricLevels levels(fabric, make_graph(fabric));
  const DownSets down(fabric, levels);
  std::vector<state::PortStore::AggregateWrite> sums =
      subtree_sums(fabric, subtree_sets(fabric, down, nullptr), rate);
  if (sums.empty()) return "";
  // A run with no rate at all (the first, or the first after the samples were lost) knows
  // nothing of the interval: unknown, as the ports' files have it, not idle.
  if (!any_rate)
    for (auto& write : sums) write.values.fill(std::numeric_limits<double>::quiet_NaN());
  const state::PortStore store(poll::store_options(options));
  const double time = (*result.first_read + *result.last_read) / 2;
  const auto timeout = std::clamp(std::chrono::duration_cast<std::chrono::milliseconds>(
                                      deadline - std::chrono::steady_clock::now()),
                                  std::chrono::milliseconds(100),
                                  std::chrono::milliseconds(std::chrono::seconds(30)));
  const std::vector<std::string> errors =
      store.write_aggregates(sweep::sweep_scope(options), time, sums, timeout);
  std::size_t failed = 0;
  const std::string* first = nullptr;
  for (const std::string& error : errors)
    if (!error.empty() && ++failed == 1) first = &error;
  if (!failed) return "";
  return "subtree aggregates: " + std::to_string(failed) + " of " + std::to_string(errors.size()) +
         " files not written, the first: " + *first;
}

}  // namespace ibpm::locality
