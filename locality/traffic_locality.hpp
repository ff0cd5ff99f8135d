// SPDX-License-Identifier: MIT
// Traffic locality of a node set X over a window (ibpm paper, section 3):
//   gen, con   data sent / received by X's host ports
//   out, in    data on the cables that cross X's border, leaving / entering X
//   l_gen = 1 - out/gen,  l_con = 1 - in/con,  l = 1 - (out + in) / (gen + con)
// The formula assumes what enters X is consumed in X. Traffic that crosses X (in on one border
// cable, out on another) breaks it: such sets are flagged, from the structure (a border cable
// that leads down out of X) and from the numbers (out > gen or in > con).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "fabric/fabric.hpp"
#include "history/link_usage.hpp"
#include "locality/node_sets.hpp"

namespace ibpm::locality {

struct SetTraffic {
  const NodeSet* set = nullptr;
  double gen = 0, con = 0, out = 0, in = 0;  // octets per second
  std::optional<double> l_gen, l_con, l;     // nullopt when the set is idle (under 1 MB/s)
  std::size_t border_cables = 0;
  std::size_t unmeasured = 0;  // host ports and border cables without history in the window
  bool transit = false;        // the locality formula does not hold for this set
  bool no_history = false;     // none of its host ports has a rate in the window: unknown, not idle
  std::string note;            // why: "border cable spine03[7] leads down out of the set", ...
};

// A set's four sums and how many of the directions they add up were measured, read from the
// links' usage (below) or from the sweeps' per-subtree aggregates (subtree_aggregates.hpp).
struct SetSums {
  double gen = 0, con = 0, out = 0, in = 0;  // octets per second
  std::size_t host_unmeasured = 0;           // host port directions without a rate
  std::size_t border_unmeasured = 0;         // border cable directions without a rate
};

// usage: history::link_usage() of the same fabric and window.
std::vector<SetTraffic> set_traffic(const Fabric& fabric, const DownSets& down,
                                    const std::vector<NodeSet>& sets,
                                    const std::vector<history::LinkUsage>& usage,
                                    const NodeNameMap* names);

// The same from each set's sums (by set), measured elsewhere.
std::vector<SetTraffic> set_traffic(const Fabric& fabric, const DownSets& down,
                                    const std::vector<NodeSet>& sets,
                                    const std::vector<SetSums>& sums, const NodeNameMap* names);

}  // namespace ibpm::locality
