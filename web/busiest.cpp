// SPDX-License-Identifier: MIT

#include "busiest.hpp"

#include <algorithm>
#include <set>

namespace ibpm::web {

std::vector<BusyDirection> busiest_directions(const std::vector<history::LinkUsage>& usage,
                                              std::size_t limit) {
  std::vector<BusyDirection> all;
  for (const history::LinkUsage& u : usage)
    for (const history::DirectionUsage* d : {&u.a_to_b, &u.b_to_a})
      if (d->measured) all.push_back({u.link, d});
  auto busier = [](const BusyDirection& x, const BusyDirection& y) {
    const double ux = x.direction->average_util.value_or(-1);
    const double uy = y.direction->average_util.value_or(-1);
    if (ux != uy) return ux > uy;
    return x.direction->average_octets_s > y.direction->average_octets_s;
  };
  const std::size_t n = std::min(limit, all.size());
  std::partial_sort(all.begin(), all.begin() + static_cast<std::ptrdiff_t>(n), all.end(), busier);
  all.resize(n);
  return all;
}

std::vector<std::size_t> busiest_links(const std::vector<history::LinkUsage>& usage,
                                       std::size_t limit) {
  std::vector<std::size_t> links;
  std::set<std::size_t> seen;
  for (const BusyDirection& d : busiest_directions(usage, limit))
    if (seen.insert(d.link).second) links.push_back(d.link);
  return links;
}

}  // namespace ibpm::web
