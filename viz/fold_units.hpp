// SPDX-License-Identifier: MIT
// The structure a large map folds by: every switch belongs to one unit drawn as one node on the
// overview, and every host goes with the switch it hangs off. Units, coarsest first:
//   pod          the largest subtrees below the top: switches above the leaves that share one
//                set of hosts below them (a pod's spines) with every switch under them
//   chassis      the ASICs of one director (same system image GUID), when not inside a pod
//   group        switches of one level outside pods that reach the same neighbours (a core
//                group wired to the same spines); leaves outside pods stay one unit each
//   leaf         a leaf outside any pod, with its hosts
// Hosts are not units: each is kept with its home switch (the one on its lowest cabled port).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "fabric/fabric.hpp"
#include "fabric/node_name_map.hpp"
#include "levels/fabric_levels.hpp"

namespace ibpm::viz {

inline constexpr std::size_t kNoUnit = static_cast<std::size_t>(-1);

enum class UnitKind { pod, chassis, group, leaf };
std::string_view to_string(UnitKind kind);

struct FoldUnit {
  UnitKind kind = UnitKind::leaf;
  std::string id;                     // file-name safe: "pod-0x<GUID>" of its first switch
  std::string name;                   // plain text: "pod of spine01..spine18 (18 spines)"
  std::string label;                  // shorter, for the node: "pod spine01..spine18"
  int rank = levels::kLeafLevel;      // the highest level of its switches
  std::vector<std::size_t> switches;  // node indices, fabric order
  std::size_t hosts = 0;              // hosts kept with its switches
};

struct FoldUnits {
  std::vector<FoldUnit> units;
  std::vector<std::size_t> unit_of;  // by node index: unit, kNoUnit for unplaced nodes
  std::vector<std::size_t> home_of;  // by node index: a host's home switch, the node itself
                                     // for a switch, kNoUnit when it has none
};

// Throws nothing; a fabric without switches has no units.
FoldUnits fold_units(const Fabric& fabric, const levels::FabricLevels& levels,
                     const NodeNameMap* names);

// The switch a host hangs off (its lowest cabled port leading to a switch); kNoUnit when none.
std::size_t home_switch(const Fabric& fabric, std::size_t host_index);

}  // namespace ibpm::viz
