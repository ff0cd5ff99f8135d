// SPDX-License-Identifier: MIT
// The names of the attributes and methods the MADs we send and replay carry, for messages.
#pragma once

#include <cstdint>
#include <string>

namespace ibpm::mad {

// "PortCounters", "NodeInfo"; "attribute 0x1234 of class 0x04" for one without a name here.
// Directed-route SMPs (class 0x81) share the subnet class's names.
std::string attribute_name(std::uint8_t mgmt_class, std::uint16_t attribute);

// "Get", "Set", "GetTable"; "method 0x14" otherwise.
std::string method_name(std::uint8_t method);

}  // namespace ibpm::mad
