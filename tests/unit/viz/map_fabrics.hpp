// SPDX-License-Identifier: MIT
// Small fabrics for the map tests: the simulator's fat trees, and hand-made ones with parallel
// cables, an aggregation node and a hostile NodeDescription.
#pragma once

#include <string>

#include "fabric/fabric.hpp"
#include "sim/fat_tree.hpp"

namespace ibpm::viz::test {

// 648 hosts on 36 leaves, 18 spines (36-port switches), 4x HDR everywhere.
Fabric fat_tree_648();

// spine (0x...10) above leaf (0x...20) with `parallel` cables between them, `hosts` CAs on the leaf
// (0x...100 + i, "host<i>"), and a SHARP aggregation node on the leaf. Ports 4x HDR.
inline constexpr Guid kSpine = 0x10;
inline constexpr Guid kLeaf = 0x20;
inline constexpr Guid kAggregation = 0x30;
Guid host_guid(int i);
Fabric two_switches(int parallel, int hosts, const std::string& leaf_description = "leaf01");

// Index in Fabric::links() of the cable at `end`.
std::size_t link_at(const Fabric& fabric, PortRef end);

}  // namespace ibpm::viz::test
