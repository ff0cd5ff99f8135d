// SPDX-License-Identifier: MIT
// A small libibnetdisc cache file built byte by byte (one switch, two hosts), so tests and fuzz
// seeds have a valid cache without a simulator. The layout is libibnetdisc's (version 1).
#pragma once

#include <vector>

namespace ibpm::test {

// Switch 0x0100 "sw1" (8 ports, LID 1) with hosts 0x0200 "h1" (LID 2) on port 1 and 0x0300 "h2"
// (LID 3) on port 2; discovered from h1.
std::vector<unsigned char> small_ibnd_cache();

}  // namespace ibpm::test
