// SPDX-License-Identifier: MIT
// Port lists as operators write them: "1-18,20" (numbers and ranges, comma-separated).
#pragma once

#include <string_view>
#include <vector>

#include "fabric/types.hpp"

namespace ibpm::delegation {

// The ports in ascending order. Throws std::invalid_argument with a one-line reason for an
// empty item, a number outside 1..254, a backwards range or a port listed twice.
std::vector<PortNumber> parse_port_list(std::string_view text);

}  // namespace ibpm::delegation
