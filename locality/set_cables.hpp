// SPDX-License-Identifier: MIT
// The cables a node set's traffic is read on (traffic_locality.hpp): each of its hosts' cabled
// ports (gen leaves the host through them, con enters), and its border cables, those with one end
// inside and one outside, not counting an aggregation node's (out leaves the set through them,
// in enters). The per-port computation and the sweep's per-subtree sums read the same cables.
#pragma once

#include <boost/dynamic_bitset.hpp>
#include <cstddef>
#include <utility>
#include <vector>

#include "fabric/fabric.hpp"
#include "locality/node_sets.hpp"

namespace ibpm::locality {

struct SetCables {
  // (link index, the end at the host / inside the set).
  std::vector<std::pair<std::size_t, PortRef>> host, border;
};

// Finds the cables of many sets of one fabric (the cables' end nodes looked up once).
class SetCableFinder {
 public:
  explicit SetCableFinder(const Fabric& fabric);
  SetCables of(const NodeSet& set);
  // The members of the last set given to of(), by node index.
  const boost::dynamic_bitset<>& inside() const { return inside_; }
  // The node indices of a link's ends (Link::a, Link::b).
  const std::pair<std::size_t, std::size_t>& ends(std::size_t link) const { return ends_[link]; }

 private:
  const Fabric& fabric_;
  std::vector<std::pair<std::size_t, std::size_t>> ends_;
  boost::dynamic_bitset<> inside_;
};

// The other end of a link than `end`.
PortRef far_end(const Link& link, const PortRef& end);

}  // namespace ibpm::locality
