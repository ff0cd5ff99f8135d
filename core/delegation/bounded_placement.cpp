// SPDX-License-Identifier: MIT

#include "delegation/bounded_placement.hpp"

#include <algorithm>
#include <bit>
#include <functional>
#include <map>
#include <tuple>

#include "delegation/rendezvous.hpp"

namespace ibpm::delegation {

std::size_t load_cap(std::size_t ports, unsigned count) {
  const std::size_t denominator = 100 * std::size_t{count};
  return (ports * (100 + load_slack_percent) + denominator - 1) / denominator;
}

namespace {

// Units are placed by power-of-two size class (1, 2-3, 4-7, ..., 32-63 ports), heaviest class
// first: the light units placed last fill the gaps the heavy ones leave, which is the only way to
// even out a fabric of 36-port switches and 1-port HCAs. By class rather than exact weight so a
// switch losing a cable keeps its place in the order, and with it the placement of everything
// after it. Within a class by the hash of the GUID: the same on every host whatever the order of
// the input, and no shard favoured.
int size_class(std::size_t weight) { return std::bit_width(weight); }
std::size_t largest_in_class(int size_class) { return (std::size_t{1} << size_class) - 1; }

auto placement_order(const Unit& unit) {
  return std::tuple(-size_class(unit.weight()), splitmix64(unit.node), unit.node);
}

// The cap while a class is placed: the fair share of the ports placed so far and in this class,
// plus epsilon of it but no more than the class's largest weight. A unit of weight w always
// finds room under share + w - 1 (see choose_shard), so more slack would only let some shards run
// ahead of the others; with it, the 1-port HCAs placed last fill every shard up to the fair
// share, which evens the lightest shards as well as the heaviest.
struct ClassLimits {
  std::size_t share = 0;
  std::size_t cap = 0;
};

ClassLimits class_limits(std::size_t ports, int size_class, unsigned count) {
  const std::size_t share = (ports + count - 1) / count;
  return {share, std::min(load_cap(ports, count), share + largest_in_class(size_class))};
}

// The unit's highest-ranked shard where it fits under the cap. A unit heavier than the slack may
// fit nowhere: then its highest-ranked shard still below the fair share, which exists when every
// shard is a choice (the loads so far add up to less than count * share); it ends below
// share + weight. Only nearest mode, choosing among the nearest collectors' shards, can find
// none of those: the least loaded of them.
unsigned choose_shard(const std::vector<unsigned>& ranking, const std::vector<std::size_t>& load,
                      std::size_t weight, ClassLimits limits) {
  for (unsigned s : ranking)
    if (load[s] + weight <= limits.cap) return s;
  for (unsigned s : ranking)
    if (load[s] < limits.share) return s;
  return *std::min_element(ranking.begin(), ranking.end(),
                           [&](unsigned a, unsigned b) { return load[a] < load[b]; });
}

}  // namespace

std::vector<unsigned> place_units(const std::vector<Unit>& units,
                                  const std::vector<std::vector<unsigned>>& choices,
                                  unsigned count) {
  std::vector<unsigned> shard(units.size(), 0);
  std::vector<std::size_t> load(count + 1, 0);  // by shard number; [0] unused
  std::size_t placed = 0;
  auto put = [&](std::size_t u, unsigned s) {
    shard[u] = s;
    load[s] += units[u].weight();
    placed += units[u].weight();
  };

  // Units without a choice first: their loads are fixed, the others work around them.
  std::vector<std::size_t> free;
  for (std::size_t u = 0; u < units.size(); ++u) {
    if (units[u].pinned_shard != 0)
      put(u, units[u].pinned_shard);
    else if (choices[u].size() == 1)
      put(u, choices[u].front());
    else
      free.push_back(u);
  }
  std::sort(free.begin(), free.end(), [&](std::size_t a, std::size_t b) {
    return placement_order(units[a]) < placement_order(units[b]);
  });

  // The ports placed by the end of each class: the fixed ones, the class and every heavier one.
  std::map<int, std::size_t, std::greater<>> ports_through_class;
  for (std::size_t u : free)
    ports_through_class[size_class(units[u].weight())] += units[u].weight();
  std::size_t running = placed;
  for (auto& [size, ports] : ports_through_class) {  // heaviest class first
    running += ports;
    ports = running;
  }

  const std::vector<unsigned> every_shard = all_shards(count);
  for (std::size_t u : free) {
    const std::size_t w = units[u].weight();
    const int c = size_class(w);
    const std::vector<unsigned> ranking =
        rendezvous_ranking(units[u].node, choices[u].empty() ? every_shard : choices[u]);
    put(u, choose_shard(ranking, load, w, class_limits(ports_through_class[c], c, count)));
  }
  return shard;
}

}  // namespace ibpm::delegation
