// SPDX-License-Identifier: MIT
// The pieces of an ibsim net file both of ibpm's net files are written from (a real fabric's,
// core/dump/ibsim_net_writer, and a generated one's, sim/net_file), and ibsim's table sizes:
//   Switch	36 ...                       a node record: keyword and port count
//   [1]	"spine01"[3]  ...               a cabled port and its peer (node id and port)
//   ... # ... "spine01" lid 0 4xHDR    the trailer ibsim takes the port's width and speed from
#pragma once

#include <string>
#include <string_view>

#include "fabric/types.hpp"

namespace ibpm::dump {

// "Switch\t36" or "Hca\t2".
std::string ibsim_node_record(bool as_switch, int ports);

// "[1]\t\"spine01\"[3]".
std::string ibsim_port_link(int port, std::string_view peer_id, int peer_port);

// "\"spine01\" lid 0 4xHDR".
std::string ibsim_link_trailer(std::string_view peer_id, LinkWidth width, LinkSpeed speed);

// Nodes, switches and ports of a net file as ibsim counts them (a switch has a port 0 too).
struct IbsimNetSize {
  int nodes = 0;
  int switches = 0;
  int ports = 0;
};

// ibsim's built-in limits (its -N, -S and -P options raise them).
inline constexpr IbsimNetSize kIbsimDefaultLimits{2048, 256, 13312};

}  // namespace ibpm::dump
