// SPDX-License-Identifier: MIT

#include "delegation/delegation.hpp"

#include <stdexcept>
#include <string>

#include "delegation/assignment_units.hpp"
#include "delegation/bounded_placement.hpp"
#include "delegation/nearest_collector.hpp"

namespace ibpm::delegation {
namespace {

void check_shard_count(const DelegationFile& delegation, unsigned count) {
  if (count < 1 || count > max_shard_count)
    throw std::invalid_argument("the number of shards must be between 1 and " +
                                std::to_string(max_shard_count) + ", not " + std::to_string(count));
  if (delegation.shards && *delegation.shards != count)
    throw std::invalid_argument("the delegation file is written for " +
                                std::to_string(*delegation.shards) + " shards, not " +
                                std::to_string(count));
}

// Nearest mode asks every collector for its share: a shard without one would poll nothing but
// its pins, which is a mistake in the file rather than a wish.
void check_collectors(const DelegationFile& delegation, unsigned count) {
  if (delegation.collectors.empty())
    throw std::invalid_argument("--assign nearest needs the collectors in the delegation file");
  for (const auto& [shard, node] : delegation.collectors)
    if (shard < 1 || shard > count)
      throw std::invalid_argument("the collector " + format_guid(node) + " is for shard " +
                                  std::to_string(shard) + ", but there are " +
                                  std::to_string(count) + " shards");
  for (unsigned shard = 1; shard <= count; ++shard)
    if (!delegation.collectors.contains(shard))
      throw std::invalid_argument("--assign nearest: shard " + std::to_string(shard) +
                                  " has no collector in the delegation file");
}

// The shards each unit may go to: any (an empty list) in even mode; in nearest mode the shards
// of its nearest collectors, or any when no collector reaches it.
std::vector<std::vector<unsigned>> choices_of(const Fabric& fabric, const std::vector<Unit>& units,
                                              const DelegationFile& delegation, AssignMode mode) {
  std::vector<std::vector<unsigned>> choices(units.size());
  if (mode == AssignMode::even) return choices;
  const auto nearest = nearest_collector_shards(fabric, delegation.collectors);
  for (std::size_t u = 0; u < units.size(); ++u)
    if (fabric.find(units[u].node)) choices[u] = nearest[fabric.index_of(units[u].node)];
  return choices;
}

}  // namespace

std::vector<unsigned> assign_shards(const Fabric& fabric,
                                    const std::vector<poll::PortTarget>& targets, unsigned count,
                                    const DelegationFile& delegation, AssignMode mode) {
  check_shard_count(delegation, count);
  if (mode == AssignMode::nearest) check_collectors(delegation, count);
  const std::vector<Unit> units = make_units(targets, delegation.pins, count);
  const std::vector<unsigned> unit_shards =
      place_units(units, choices_of(fabric, units, delegation, mode), count);
  std::vector<unsigned> assignment(targets.size(), 0);
  for (std::size_t u = 0; u < units.size(); ++u)
    for (std::size_t target : units[u].targets) assignment[target] = unit_shards[u];
  return assignment;
}

std::vector<poll::PortTarget> shard_targets(const Fabric& fabric,
                                            const std::vector<poll::PortTarget>& targets,
                                            ShardSpec spec, const DelegationFile& delegation,
                                            AssignMode mode) {
  const std::vector<unsigned> assignment =
      assign_shards(fabric, targets, spec.count, delegation, mode);
  std::vector<poll::PortTarget> mine;
  for (std::size_t i = 0; i < targets.size(); ++i)
    if (assignment[i] == spec.index) mine.push_back(targets[i]);
  return mine;
}

std::vector<std::size_t> shard_loads(const std::vector<unsigned>& assignment, unsigned count) {
  std::vector<std::size_t> loads(count, 0);
  for (unsigned shard : assignment) {
    if (shard < 1 || shard > count)
      throw std::invalid_argument("shard " + std::to_string(shard) + " is outside 1.." +
                                  std::to_string(count));
    ++loads[shard - 1];
  }
  return loads;
}

}  // namespace ibpm::delegation
