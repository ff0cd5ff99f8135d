// SPDX-License-Identifier: MIT
// A short description of a fabric for operators: node and link counts, link rates, degraded links.
#pragma once

#include <ostream>

#include "topology/topology.hpp"

namespace ibpm::tools {

void print_fabric_summary(std::ostream& out, const topology::Topology& topology);

}  // namespace ibpm::tools
