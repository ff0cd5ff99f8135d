// SPDX-License-Identifier: MIT
// The switches' linear forwarding tables as the subnet manager programmed them: for each switch
// (by node GUID), the egress port of every destination LID up to its LinearFDBTop.
#pragma once

#include <cstdint>
#include <map>
#include <vector>

#include "fabric/types.hpp"

namespace ibpm::routes {

// An LFT entry with no route (the table's "ff").
constexpr PortNumber kNoRoute = 0xff;

struct SwitchTable {
  Guid node = 0;
  Lid lid = 0;                    // the LID the table was read at
  std::vector<PortNumber> ports;  // egress port by destination LID, 0..LinearFDBTop

  // The egress port of `dlid`; kNoRoute beyond the table's top.
  PortNumber egress(unsigned dlid) const { return dlid < ports.size() ? ports[dlid] : kNoRoute; }
};

struct ForwardingTables {
  std::int64_t read_at = 0;  // when they were read (seconds since the epoch)
  std::map<Guid, SwitchTable> switches;

  const SwitchTable* find(Guid node) const;
};

}  // namespace ibpm::routes
