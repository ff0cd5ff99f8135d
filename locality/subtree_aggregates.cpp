// SPDX-License-Identifier: MIT

#include "locality/subtree_aggregates.hpp"

#define XXH_INLINE_ALL
#include <xxhash.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdio>
#include <tuple>

namespace ibpm::locality {

namespace {

// The subtree's cables in an order that does not depend on the topology file's.
std::uint64_t cables_hash(const Fabric& fabric, const SetCables& cables) {
  std::vector<std::uint64_t> words;
  for (const auto* group : {&cables.host, &cables.border}) {
    std::vector<std::tuple<Guid, PortNumber, Guid, PortNumber>> sorted;
    for (const auto& [l, end] : *group) {
      const PortRef far = far_end(fabric.links()[l], end);
      sorted.emplace_back(end.node, end.port, far.node, far.port);
    }
    std::sort(sorted.begin(), sorted.end());
    for (const auto& [a, ap, b, bp] : sorted) {
      words.push_back(a);
      words.push_back(ap);
      words.push_back(b);
      words.push_back(bp);
    }
    words.push_back(~std::uint64_t{0});  // between the groups
  }
  return XXH3_64bits(words.data(), words.size() * sizeof(std::uint64_t));
}

// The subtree's file name: its lowest root GUID and the hash of its cables.
std::string aggregate_name(const Fabric& fabric, const NodeSet& set, const SetCables& cables) {
  Guid first = 0;
  for (std::size_t r : set.roots)
    if (!first || fabric.nodes()[r].guid < first) first = fabric.nodes()[r].guid;
  if (!first && !set.members.empty()) first = fabric.nodes()[set.members.front()].guid;
  char hash[24];
  std::snprintf(hash, sizeof hash, "-%016llx",
                static_cast<unsigned long long>(cables_hash(fabric, cables)));
  return format_guid(first) + hash;
}

// A scope's sums over one subtree's cables.
state::PortStore::AggregateWrite sums_of(const Fabric& fabric, std::string name,
                                         const SetCables& cables, const DirectionRate& rate) {
  using state::AggregateSource;
  state::PortStore::AggregateWrite write;
  write.name = std::move(name);
  auto& v = write.values;
  auto add = [&](AggregateSource source, const PortRef& from, const PortRef& to) {
    if (const std::optional<double> r = rate(from, to)) {
      v[static_cast<std::size_t>(source)] += *r;
      v[static_cast<std::size_t>(AggregateSource::directions)] += 1;
    }
  };
  for (const auto& [l, host] : cables.host) {
    const PortRef far = far_end(fabric.links()[l], host);
    add(AggregateSource::gen, host, far);
    add(AggregateSource::con, far, host);
  }
  for (const auto& [l, end] : cables.border) {
    const PortRef far = far_end(fabric.links()[l], end);
    add(AggregateSource::out, end, far);
    add(AggregateSource::in, far, end);
  }
  return write;
}

}  // namespace

std::vector<SubtreeAggregate> subtree_aggregates(const Fabric& fabric,
                                                 const std::vector<NodeSet>& sets) {
  std::vector<SubtreeAggregate> out;
  out.reserve(sets.size());
  SetCableFinder finder(fabric);
  for (const NodeSet& set : sets) {
    SubtreeAggregate aggregate;
    aggregate.cables = finder.of(set);
    aggregate.file_name = aggregate_name(fabric, set, aggregate.cables);
    out.push_back(std::move(aggregate));
  }
  return out;
}

std::vector<state::PortStore::AggregateWrite> aggregate_sums(
    const Fabric& fabric, const std::vector<SubtreeAggregate>& aggregates,
    const DirectionRate& rate) {
  std::vector<state::PortStore::AggregateWrite> out;
  out.reserve(aggregates.size());
  for (const SubtreeAggregate& aggregate : aggregates)
    out.push_back(sums_of(fabric, aggregate.file_name, aggregate.cables, rate));
  return out;
}

std::vector<state::PortStore::AggregateWrite> subtree_sums(const Fabric& fabric,
                                                           const std::vector<NodeSet>& sets,
                                                           const DirectionRate& rate) {
  std::vector<state::PortStore::AggregateWrite> out;
  out.reserve(sets.size());
  SetCableFinder finder(fabric);
  for (const NodeSet& set : sets) {
    const SetCables cables = finder.of(set);
    out.push_back(sums_of(fabric, aggregate_name(fabric, set, cables), cables, rate));
  }
  return out;
}

}  // namespace ibpm::locality
