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

// No file of ours holds more: more SMs than a subnet has, or not a file of ours.
inline constexpr unsigned long long kMaxRememberedBytes = 1 << 20;

// nullopt when the file does not exist; throws std::runtime_error naming the file when it cannot
// be read or is not such a file. A link at the path is not followed, anything but a regular file
// (a FIFO, a device) is refused unread, and so is one larger than kMaxRememberedBytes.
std::optional<Remembered> read_remembered(const std::string& path);

// What the last run left for this one, never throwing: `remembered` is nullopt when there is no
// file or it cannot be used, and then `problem` says why (read_remembered's reason). The run goes
// on as a first run would, and its own state replaces the file.
struct Recalled {
  std::optional<Remembered> remembered;
  std::string problem;
};
Recalled recall_remembered(const std::string& path);
void write_remembered(const std::string& path, const Remembered& remembered);

// The text itself (tested apart from files).
std::string format_remembered(const Remembered& remembered);
Remembered parse_remembered(const std::string& text);  // throws std::runtime_error

}  // namespace ibpm::sm
