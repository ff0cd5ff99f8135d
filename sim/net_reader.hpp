// SPDX-License-Identifier: MIT
// Reading an ibsim net file back into the NetTopology it describes, so that tools attached to a
// running simulation (ibpm-sim traffic) know its cabling. Takes what to_ibsim_net writes and the
// ibnetdiscover-style files ibsim also reads:
//   Switch 36 "leaf01"            (also Hca / Ca; Rt is read as a switch, as ibsim models it)
//   [19]  "spine01"[1]  # "spine01" lid 0 4xHDR      ([N](portguid) forms too)
// The trailer's WIDTHxSPEED is what that end enables; without one ibsim brings the port up 4x
// SDR, and so does this reader. Comments, blank lines and the lines ibsim takes for node options
// (vendid=, sysimgguid=, ...) are skipped.
#pragma once

#include <string_view>

#include "sim/net_topology.hpp"

namespace ibpm::sim {

// Throws std::invalid_argument "line N: reason" for a malformed header or port line, a peer that
// is not in the file, a port outside its node's port count, or two lines cabling one port to
// different peers. "include" and "do" lines (ibsim extensions) are refused.
NetTopology parse_ibsim_net(std::string_view text);

}  // namespace ibpm::sim
