// SPDX-License-Identifier: MIT
// Decoding of the PortInfo fields the fabric model keeps (state, active and enabled width/speed).
#pragma once

#include <cstdint>

#include "fabric/fabric.hpp"

namespace ibpm::mad {

// Unicast LIDs are 1..0xbfff; 0 is "unassigned", 0xc000.. multicast, 0xffff permissive.
constexpr bool is_unicast_lid(unsigned lid) { return lid >= 1 && lid < 0xc000; }

WidthSet decode_width_mask(unsigned mask);

// info: the port's PortInfo; ext_info: Mellanox extended PortInfo (FDR10), may be all zero;
// cap_info: the PortInfo whose CapabilityMask applies (port 0 for switches).
void apply_port_info(Port& port, const std::uint8_t* info, const std::uint8_t* ext_info,
                     const std::uint8_t* cap_info);

}  // namespace ibpm::mad
