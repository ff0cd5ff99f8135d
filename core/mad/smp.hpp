// SPDX-License-Identifier: MIT
// Subnet management attributes read by LID-routed SMPs: NodeInfo (who answers at a LID),
// PortInfo (a port's state, width and speed right now), SwitchInfo and the switch's linear
// forwarding table (where it sends each destination LID).
#pragma once

#include <cstdint>

#include "fabric/fabric.hpp"
#include "mad/mad_engine.hpp"

namespace ibpm::mad {

struct NodeInfo {
  Guid node_guid = 0;
  Guid port_guid = 0;
  NodeType type = NodeType::unknown;
  unsigned ports = 0;
  unsigned local_port = 0;  // the port the SMP came in through
};

MadQuery node_info_query(unsigned lid);
NodeInfo decode_node_info(const MadData& data);

MadQuery port_info_query(unsigned lid, unsigned port);
// State, active and enabled width/speed into `port`. `capability_source` is the PortInfo whose
// CapabilityMask applies: port 0's for a switch, the port's own for a CA.
void decode_port_info(const MadData& info, const MadData& capability_source, Port& port);

MadQuery switch_info_query(unsigned lid);
// SwitchInfo:LinearFDBTop, the highest LID the switch's linear forwarding table holds.
unsigned decode_linear_fdb_top(const MadData& data);

// LinearForwardingTable block `block`: the egress ports of LIDs 64 x block .. 64 x block + 63,
// one byte each, first LID first (0xff: no route).
constexpr unsigned kLftBlockSize = 64;
// A Set of a whole block (tests/routes/lft_set) carries it in the request's payload.
static_assert(kLftBlockSize <= kMadRequestSize);
MadQuery lft_block_query(unsigned lid, unsigned block);

}  // namespace ibpm::mad
