// SPDX-License-Identifier: MIT
// Helpers shared by the dump tests: inline parsing, the real dumps under IBPM_REAL_FIXTURES, and
// fabric comparison.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "dump/parsed_dump.hpp"

namespace ibpm::test {

// Parses text as ibnetdiscover output with origin "t".
dump::ParsedDump parse_text(std::string_view text);

// True if any warning contains `needle`.
bool has_warning(const dump::ParsedDump& dump, std::string_view needle);

// The real dumps folder, or empty if it is not there.
std::filesystem::path real_fixtures_dir();

// Every *.ibnetdiscover* file of the real dumps folder, sorted by name.
std::vector<std::filesystem::path> real_dump_files();

// A file's bytes; "*.xz" files are decompressed with xz -dc.
std::string read_fixture(const std::filesystem::path& path);

// Parses a fixture with the parser its content calls for (ports report or ibnetdiscover).
dump::ParsedDump parse_fixture(const std::filesystem::path& path);

// The first difference between two fabrics, or empty if they are the same. Ports are compared
// when they are cabled or port 0; with all_ports, ports without a cable are compared too.
std::string fabric_difference(const Fabric& a, const Fabric& b, bool all_ports);

}  // namespace ibpm::test
