// SPDX-License-Identifier: MIT
// Shared by the live topology tests: link sets to compare fabrics by, and our tools run as
// clients of a simulated fabric.
#pragma once

#include <set>
#include <string>
#include <vector>

#include "fabric/fabric.hpp"
#include "sim/net_topology.hpp"

namespace ibpm::test {

// "leaf01[9] <-> spine01[1]", ends in sorted order: the same cable reads the same from both ends.
std::string cable_name(std::string a, int a_port, std::string b, int b_port);

std::multiset<std::string> cables(const Fabric& fabric);
std::multiset<std::string> cables(const sim::NetTopology& net);

}  // namespace ibpm::test
