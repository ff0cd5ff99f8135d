// SPDX-License-Identifier: MIT
// The deterministic node order text writers use: switches, then CAs, then routers, then nodes of
// unknown type, each group by GUID.
#pragma once

#include <vector>

#include "fabric/fabric.hpp"

namespace ibpm::dump {

std::vector<const Node*> nodes_in_write_order(const Fabric& fabric);

// "0002c903007b78b0": 16 lower-case hex digits, no prefix (as in ibnetdiscover node ids).
std::string hex16(Guid guid);

// "2c903007b78b0": lower-case hex without padding or prefix.
std::string hex(std::uint64_t value);

}  // namespace ibpm::dump
