// SPDX-License-Identifier: MIT
// The fabric the data-product tests share: a leaf whose ports 1 and 2 are cabled to ports 1 and 2
// of a spine.
#pragma once

#include <string>

#include "fabric/fabric.hpp"

namespace ibpm::test {

inline constexpr Guid kLeaf = 0x0002c90300001234;
inline constexpr Guid kSpine = 0x0002c90300005678;

// The two switches, described `leaf` and `spine`, with `ports` ports each, added to `fabric`.
inline void add_two_switches(Fabric& fabric, const std::string& leaf, const std::string& spine,
                             int ports = 36) {
  fabric.add_node(kLeaf, NodeType::sw, leaf, ports);
  fabric.add_node(kSpine, NodeType::sw, spine, ports);
  fabric.connect({kLeaf, 1}, {kSpine, 1});
  fabric.connect({kLeaf, 2}, {kSpine, 2});
}

}  // namespace ibpm::test
