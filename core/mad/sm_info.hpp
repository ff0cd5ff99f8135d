// SPDX-License-Identifier: MIT
// What the subnet managers say about themselves: SMInfo (SMP attribute 0x20, answered by the SM
// behind a port, not by the port), the SA's SMInfoRecord table (every SM the master knows) and
// NodeDescription (answered by the node, for names).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "fabric/fabric.hpp"
#include "mad/mad_engine.hpp"

namespace ibpm::mad {

struct SmInfo {
  Guid port_guid = 0;
  std::uint32_t act_count = 0;  // SMPs (and other activity) the SM counts, wraps at 2^32
  unsigned priority = 0;        // 0..15
  unsigned state = 0;           // SMState as sent: 0 not active, 1 discovering, 2 standby, 3 master
};

struct SmInfoRecord {
  unsigned lid = 0;
  SmInfo info;
};

MadQuery sm_info_query(unsigned lid);
SmInfo decode_sm_info(const MadData& data);

// SubnAdmGetTable(SMInfoRecord) to the SA at `sa_lid`, every record.
MadQuery sm_info_records_query(unsigned sa_lid);
// The records of the answer's first segment (up to 6 of 32 bytes); a record of port GUID 0 ends
// the table.
std::vector<SmInfoRecord> decode_sm_info_records(const MadData& data);

MadQuery node_description_query(unsigned lid);
// Up to 64 bytes, ending at the first NUL; not sanitised.
std::string decode_node_description(const MadData& data);

}  // namespace ibpm::mad
