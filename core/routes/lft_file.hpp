// SPDX-License-Identifier: MIT
// The forwarding tables in the state directory, beside the topology: STATE_DIR/routes.lft,
// written whole or not at all (replace_file) and read without touching the fabric.
//
//   ibpm-lft 1                         magic and format version
//   read_at 1764072000                 seconds since the epoch
//   switch 0x0002c90300a1b2c3 2 ff0107...   node GUID, LID read at, egress port of LID 0, 1, ...
//                                       as two hex digits each (ff: no route)
#pragma once

#include <stdexcept>
#include <string>

#include "routes/forwarding_tables.hpp"

namespace ibpm::routes {

constexpr int kLftFileVersion = 1;

class LftFileError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// STATE_DIR/routes.lft.
std::string lft_file_path(const std::string& state_dir);

// Replaces the file atomically. Throws std::runtime_error naming the file on failure.
void write_lft_file(const std::string& path, const ForwardingTables& tables);

// Throws LftFileError with a one-line reason (missing, another format or version, a bad line
// with its number).
ForwardingTables read_lft_file(const std::string& path);

}  // namespace ibpm::routes
