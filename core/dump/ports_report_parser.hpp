// SPDX-License-Identifier: MIT
// Reads "ibnetdiscover -p" ports reports: one line per port, with its peer or without,
//   CA  134  1 0x7cfe9003003b4bde 4x EDR - SW 1719 10 0x7cfe9003009ce5b0 ( 'o0001' - 'sw1' )
//   SW 2052 37 0x506b4b03005c2740 4x ???                                 'ib-i4l1s01'
// The report names ports by port GUID only, so a CA's node GUID is taken to be its port GUID (the
// ports of a multi-port CA become separate nodes); a switch's port GUID is its node GUID, as on
// all switches seen in practice. Ports without a peer are recorded as present and down, without
// width or speed. Warnings and DumpError work as in parse_ibnetdiscover.
#pragma once

#include <istream>
#include <string>
#include <string_view>

#include "dump/parsed_dump.hpp"

namespace ibpm::dump {

ParsedDump parse_ports_report(std::istream& in, const std::string& origin);

// True if the first non-blank line of a file looks like a ports report line rather than
// ibnetdiscover topology output, so a loader can choose the parser by content.
bool looks_like_ports_report(std::string_view first_significant_line);

}  // namespace ibpm::dump
