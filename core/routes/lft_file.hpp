// SPDX-License-Identifier: MIT
// The forwarding tables in the state directory, beside the topology: STATE_DIR/routes.lft,
// written whole or not at all (replace_file) and read without touching the fabric.
//
//   ibpm-lft 2 54                      magic, format version, switches in the file
//   read_at 1764072000                 seconds since the epoch
//   switch 0x0002c90300a1b2c3 2 ff0107...   node GUID, LID read at, egress port of LID 0, 1, ...
//                                       as two hex digits each (ff: no route)
//   end 54                             the switches again: a file cut at a line end is not whole
//
// The reader takes regular files only, no larger than the header's switch count allows.
#pragma once

#include <stdexcept>
#include <string>

#include "routes/forwarding_tables.hpp"

namespace ibpm::routes {

constexpr int kLftFileVersion = 2;

class LftFileError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// STATE_DIR/routes.lft.
std::string lft_file_path(const std::string& state_dir);

// Replaces the file atomically. Throws std::runtime_error naming the file on failure.
void write_lft_file(const std::string& path, const ForwardingTables& tables);

// Throws LftFileError with a one-line reason (missing, not a regular file, another format or
// version, larger than its header allows, a bad line with its number, no end line).
ForwardingTables read_lft_file(const std::string& path);

}  // namespace ibpm::routes
