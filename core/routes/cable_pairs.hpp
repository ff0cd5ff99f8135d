// SPDX-License-Identifier: MIT
// Which host pairs each cable direction carries, from the forwarding tables. A direction is
// named by the port traffic leaves through (leaf01[7] -> spine01[1] is the direction out of
// leaf01[7]). A pair (source, destination) of endpoints crosses a direction when the route from
// the source's port to the destination's base LID leaves through that port. Routes depend only
// on (switch, DLID), so each destination is worked out once per switch, not once per source.
#pragma once

#include <cstddef>
#include <map>
#include <utility>
#include <vector>

#include "routes/route_map.hpp"

namespace ibpm::routes {

// (source, destination) as indices into RouteMap::endpoints().
using EndpointPair = std::pair<std::size_t, std::size_t>;

// Every pair of distinct endpoints whose route leaves through `from`, sorted by destination,
// then source. Pairs whose route breaks (loop, hole) count up to where it breaks.
std::vector<EndpointPair> pairs_through(const RouteMap& map, PortRef from);

// For every direction some pair crosses, how many pairs cross it.
std::map<PortRef, std::size_t> pair_counts(const RouteMap& map);

}  // namespace ibpm::routes
