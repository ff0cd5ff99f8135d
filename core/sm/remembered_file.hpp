// SPDX-License-Identifier: MIT
// What check_ib_sm remembers between runs (the master, its ActCount and when it last moved, the
// SMs known), in a small text file of the state directory, replaced whole (atomic_file.hpp):
//
//   ibpm-sm 1
//   sampled UNIX_MS
//   moved UNIX_MS
//   master GUID LID PRIORITY STATE ACTCOUNT NAME...
//   sm GUID LID PRIORITY STATE NAME...            (one per known SM)
#pragma once

#include <optional>
#include <string>

#include "sm/judgement.hpp"

namespace ibpm::sm {

// nullopt when the file does not exist; throws std::runtime_error naming the file when it cannot
// be read or is not such a file.
std::optional<Remembered> read_remembered(const std::string& path);
void write_remembered(const std::string& path, const Remembered& remembered);

// The text itself (tested apart from files).
std::string format_remembered(const Remembered& remembered);
Remembered parse_remembered(const std::string& text);  // throws std::runtime_error

}  // namespace ibpm::sm
