// SPDX-License-Identifier: MIT
// The recording side of ibpm-anonymize: a --record recording read packet by packet (libpcap),
// the GUIDs and descriptions its MADs carry learnt, then the recording written again with them
// replaced and each frame's CRCs computed anew; times, LIDs and everything else stay.
//
// Where they are: NodeInfo (SystemImageGUID, NodeGUID, PortGUID), NodeDescription, SMInfo's
// GUID, and the SA's NodeRecord and SMInfoRecord. Past those, any 4-byte aligned 8 bytes of a
// MAD after its common header that equal a GUID learnt (here or from the topology) are rewritten
// as well: a GUID in a GID, a notice or a class the tool does not know goes too.
#pragma once

#include <string>

#include "anonymous_names.hpp"

namespace ibpm::tools {

// Adds what the recording's MADs carry to `names`. Throws std::runtime_error with one line
// naming the file (and the packet) when it is not a --record recording.
void learn_recording(const std::string& path, AnonymousNames& names);

// Writes `path` anonymized to `out_path` (replaced whole); returns the packets written.
std::size_t anonymize_recording(const std::string& path, const std::string& out_path,
                                const AnonymousNames& names);

}  // namespace ibpm::tools
