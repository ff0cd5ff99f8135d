// SPDX-License-Identifier: MIT

#include "mad/mad_names.hpp"

#include <cstdio>

namespace ibpm::mad {

std::string attribute_name(std::uint8_t mgmt_class, std::uint16_t attribute) {
  if (mgmt_class == 0x04) {
    if (attribute == 0x0001) return "ClassPortInfo";
    if (attribute == 0x0012) return "PortCounters";
    if (attribute == 0x001d) return "PortCountersExtended";
  } else if (mgmt_class == 0x01 || mgmt_class == 0x81) {
    if (attribute == 0x0010) return "NodeDescription";
    if (attribute == 0x0011) return "NodeInfo";
    if (attribute == 0x0012) return "SwitchInfo";
    if (attribute == 0x0015) return "PortInfo";
    if (attribute == 0x0019) return "LinearForwardingTable";
  }
  char text[40];
  std::snprintf(text, sizeof text, "attribute 0x%04x of class 0x%02x", attribute, mgmt_class);
  return text;
}

std::string method_name(std::uint8_t method) {
  switch (method) {
    case 0x01:
      return "Get";
    case 0x02:
      return "Set";
    case 0x12:
      return "GetTable";
  }
  char text[16];
  std::snprintf(text, sizeof text, "method 0x%02x", method);
  return text;
}

}  // namespace ibpm::mad
