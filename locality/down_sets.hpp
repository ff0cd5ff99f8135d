// SPDX-License-Identifier: MIT
// Down-sets: for each switch, the hosts below it, found bottom-up through the fabric levels (a
// switch's hosts and the down-sets of its neighbours one or more levels lower). Built once per
// fabric and shared by everything that makes or measures node sets; it keeps a reference to the
// levels it was built from.
#pragma once

#include <boost/dynamic_bitset.hpp>
#include <cstddef>
#include <vector>

#include "fabric/fabric.hpp"
#include "fabric/graph.hpp"
#include "levels/fabric_levels.hpp"

namespace ibpm::locality {

class DownSets {
 public:
  DownSets(const Fabric& fabric, const levels::FabricLevels& levels);

  const levels::FabricLevels& levels() const { return levels_; }
  // Node indices of the hosts, in fabric order; bit i of a down-set is hosts()[i].
  const std::vector<std::size_t>& hosts() const { return hosts_; }
  // Empty for CAs and unplaced switches.
  const boost::dynamic_bitset<>& of(std::size_t node_index) const { return sets_[node_index]; }
  boost::dynamic_bitset<> bits_of(const std::vector<std::size_t>& host_nodes) const;

 private:
  const levels::FabricLevels& levels_;
  std::vector<std::size_t> hosts_;
  std::vector<std::ptrdiff_t> bit_;  // node index -> bit, -1 for non-hosts
  std::vector<boost::dynamic_bitset<>> sets_;
};

}  // namespace ibpm::locality
