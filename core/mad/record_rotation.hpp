// SPDX-License-Identifier: MIT
// --record-max-size, --record-max-age and --record-keep: a recording that reached its size, or
// whose first packet is older than its age, is moved aside before a run appends to it (FILE to
// FILE.1, FILE.1 to FILE.2, ... the oldest past --record-keep removed), so that a recording made
// every few minutes keeps the last hours and no more. Files turn at the start of a run only: each
// holds whole runs, and may pass the size by one run's MADs. Replayed oldest first they give the
// runs again from the first one kept, into a state directory that saw the runs before it (a fresh
// one asks what those runs had learnt).
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>

namespace ibpm::mad {

struct RecordRotation {
  std::uint64_t max_size = 0;       // bytes; 0: never rotated by size
  unsigned keep = 5;                // old files kept beside FILE
  std::chrono::seconds max_age{0};  // since the file's first packet; 0: never rotated by age
};

// "500M", "2G", "1048576": bytes, with K, M, G or T (powers of 1024; "MB", "MiB" alike).
// Throws std::invalid_argument naming the text when it is not a size.
std::uint64_t parse_record_size(const std::string& text);

// "30m", "6h", "2d", "90s", "3600": seconds, with s, m, h or d.
// Throws std::invalid_argument naming the text when it is not a duration.
std::chrono::seconds parse_record_age(const std::string& text);

// Whether a recording of `size` bytes whose first packet was recorded at `first_packet` (none:
// no packet yet, or unreadable) is due to move aside at `now`: at max_size bytes or more, or
// when its first packet is max_age old or older, whichever comes first.
bool rotation_due(std::uint64_t size,
                  std::optional<std::chrono::system_clock::time_point> first_packet,
                  std::chrono::system_clock::time_point now, const RecordRotation& rotation);

// Moves FILE aside when rotation_due says so. Runs that start together rotate once: the file is
// locked while it is looked at and moved. Throws MadError when a file cannot be moved.
void rotate_if_full(const std::string& path, const RecordRotation& rotation);

}  // namespace ibpm::mad
