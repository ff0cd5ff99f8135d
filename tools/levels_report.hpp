// SPDX-License-Identifier: MIT
// The levels of a fabric for operators: how many switches per level with a few of their names,
// hosts and aggregation nodes, spines that carry hosts, director chassis.
#pragma once

#include <ostream>

#include "fabric/fabric.hpp"

namespace ibpm::tools {

void print_levels(std::ostream& out, const Fabric& fabric, const NodeNameMap* names);

}  // namespace ibpm::tools
