// SPDX-License-Identifier: MIT
// --record-max-size and --record-keep: a recording that reached its size is moved aside before a
// run appends to it (FILE to FILE.1, FILE.1 to FILE.2, ... the oldest past --record-keep
// removed), so that a recording made every few minutes keeps the last hours and no more. Files
// turn at the start of a run only: each holds whole runs, and may pass the size by one run's
// MADs. Replayed oldest first they give the runs again from the first one kept, into a state
// directory that saw the runs before it (a fresh one asks what those runs had learnt).
#pragma once

#include <cstdint>
#include <string>

namespace ibpm::mad {

struct RecordRotation {
  std::uint64_t max_size = 0;  // bytes; 0: never rotated
  unsigned keep = 5;           // old files kept beside FILE
};

// "500M", "2G", "1048576": bytes, with K, M, G or T (powers of 1024; "MB", "MiB" alike).
// Throws std::invalid_argument naming the text when it is not a size.
std::uint64_t parse_record_size(const std::string& text);

// Moves FILE aside when it holds max_size bytes or more. Runs that start together rotate once:
// the file is locked while it is looked at and moved. Throws MadError when a file cannot be moved.
void rotate_if_full(const std::string& path, const RecordRotation& rotation);

}  // namespace ibpm::mad
