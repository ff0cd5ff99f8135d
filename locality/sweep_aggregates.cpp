// SPDX-License-Identifier: MIT

#include "locality/sweep_aggregates.hpp"

#include <algorithm>
#include <limits>
#include <map>
#include <set>

#include "fabric/graph.hpp"
#include "levels/fabric_levels.hpp"
#include "locality/down_sets.hpp"
#include "locality/node_sets.hpp"
#include "locality/subtree_aggregates.hpp"
#include "poll/poll_options.hpp"
#include "state/port_store.hpp"
#include "sweep/fabric_targets.hpp"

namespace ibpm::locality {

namespace {

// A data counter's rate as the port's RRD file derives it: not from a saturated counter (written
// unknown) nor across a reset (an unknown rate there too); octets per second.
std::optional<double> file_rate(const poll::PortRates& rates, counters::Counter counter) {
  const auto bit = counters::counter_bit(counter);
  if (rates.baseline || (rates.saturated & bit) || (rates.reset_seen & bit)) return std::nullopt;
  const std::optional<counters::Rate> rate = rates.of(counter);
  if (!rate || rate->lower_bound) return std::nullopt;
  return rate->per_second * 4.0;  // 4-octet words
}

}  // namespace

std::string write_sweep_aggregates(const sweep::SweepOptions& options,
                                   const sweep::SweepResult& result,
                                   std::chrono::steady_clock::time_point deadline) {
  if (sweep::is_repoll(options) || !result.first_read || !result.last_read) return "";
  if (!result.store.failure.empty()) return "";
  const Fabric& fabric = result.topology.fabric;
  const levels::FabricLevels levels(fabric, make_graph(fabric));
  const DownSets down(fabric, levels);
  const std::vector<SubtreeAggregate> aggregates =
      subtree_aggregates(fabric, subtree_sets(fabric, down, nullptr));
  if (aggregates.empty()) return "";

  // Every port the sweeps poll (all scopes'), and this scope's rates.
  std::set<PortRef> polled;
  for (const poll::PortTarget& t :
       sweep::fabric_port_targets(fabric, result.name_map(), options.types).targets)
    polled.insert({t.node, t.port});
  struct Rates {
    std::optional<double> xmit, rcv;
  };
  std::map<PortRef, Rates> mine;
  for (const poll::PortResult& r : result.results) {
    if (!r.sample.answered || !r.state_error.empty()) continue;
    mine[{r.target->node, r.target->port}] = {file_rate(r.rates, counters::Counter::xmit_data),
                                              file_rate(r.rates, counters::Counter::rcv_data)};
  }
  const auto rate = [&](const PortRef& from, const PortRef& to) -> std::optional<double> {
    if (polled.contains(from)) {
      const auto found = mine.find(from);
      return found == mine.end() ? std::nullopt : found->second.xmit;
    }
    if (!polled.contains(to)) return std::nullopt;
    const auto found = mine.find(to);
    return found == mine.end() ? std::nullopt : found->second.rcv;
  };

  std::vector<state::PortStore::AggregateWrite> sums = aggregate_sums(fabric, aggregates, rate);
  // A run with no rate at all (the first, or the first after the samples were lost) knows
  // nothing of the interval: unknown, as the ports' files have it, not idle.
  const bool any_rate = std::any_of(mine.begin(), mine.end(), [](const auto& port) {
    return port.second.xmit || port.second.rcv;
  });
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
