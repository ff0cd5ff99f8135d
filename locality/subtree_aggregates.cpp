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

}  // namespace

std::vector<SubtreeAggregate> subtree_aggregates(const Fabric& fabric,
                                                 const std::vector<NodeSet>& sets) {
  std::vector<SubtreeAggregate> out;
  out.reserve(sets.size());
  SetCableFinder finder(fabric);
  for (const NodeSet& set : sets) {
    SubtreeAggregate aggregate;
    aggregate.cables = finder.of(set);
    Guid first = 0;
    for (std::size_t r : set.roots)
      if (!first || fabric.nodes()[r].guid < first) first = fabric.nodes()[r].guid;
    if (!first && !set.members.empty()) first = fabric.nodes()[set.members.front()].guid;
    char hash[24];
    std::snprintf(hash, sizeof hash, "-%016llx",
                  static_cast<unsigned long long>(cables_hash(fabric, aggregate.cables)));
    aggregate.file_name = format_guid(first) + hash;
    out.push_back(std::move(aggregate));
  }
  return out;
}

std::vector<state::PortStore::AggregateWrite> aggregate_sums(
    const Fabric& fabric, const std::vector<SubtreeAggregate>& aggregates,
    const DirectionRate& rate) {
  using state::AggregateSource;
  std::vector<state::PortStore::AggregateWrite> out;
  out.reserve(aggregates.size());
  for (const SubtreeAggregate& aggregate : aggregates) {
    state::PortStore::AggregateWrite write;
    write.name = aggregate.file_name;
    auto& v = write.values;
    auto add = [&](AggregateSource source, const PortRef& from, const PortRef& to) {
      if (const std::optional<double> r = rate(from, to)) {
        v[static_cast<std::size_t>(source)] += *r;
        v[static_cast<std::size_t>(AggregateSource::directions)] += 1;
      }
    };
    for (const auto& [l, host] : aggregate.cables.host) {
      const PortRef far = far_end(fabric.links()[l], host);
      add(AggregateSource::gen, host, far);
      add(AggregateSource::con, far, host);
    }
    for (const auto& [l, end] : aggregate.cables.border) {
      const PortRef far = far_end(fabric.links()[l], end);
      add(AggregateSource::out, end, far);
      add(AggregateSource::in, far, end);
    }
    out.push_back(std::move(write));
  }
  return out;
}

}  // namespace ibpm::locality
