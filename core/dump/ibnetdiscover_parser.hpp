// SPDX-License-Identifier: MIT
// Reads ibnetdiscover topology files (and the ibdiagnet2.ibnetdiscover variant) into a Fabric.
//
// The reader is forgiving about everything real captures contain: terminal prompts, banners and
// stderr lines (skipped with a warning), BOM, CRLF or lone CR line ends, tabs turned into spaces or
// deleted, missing blank lines, bogus LIDs (kept absent, with a warning), peers that never get a
// record of their own (created from the reference, with a warning), and inconsistent cabling
// (first cable wins, with a warning). It throws DumpError only for lines that have the shape of a
// node header or port line but cannot be read (port number not a number or above 255, unreadable
// GUID, ...).
#pragma once

#include <filesystem>
#include <istream>
#include <string>

#include "dump/parsed_dump.hpp"

namespace ibpm::dump {

// Streams `in` line by line; `origin` names the input in warnings and errors.
ParsedDump parse_ibnetdiscover(std::istream& in, const std::string& origin);

// Throws DumpError when the file cannot be opened.
ParsedDump parse_ibnetdiscover_file(const std::filesystem::path& path);

}  // namespace ibpm::dump
