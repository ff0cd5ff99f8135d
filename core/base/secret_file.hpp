// SPDX-License-Identifier: MIT
// A secret (a password) read from a file, never from the command line, where every user sees it
// in the process list. Like ssh with its private keys, a file that others may read is refused:
// the secret would be everybody's.
#pragma once

#include <string>

namespace ibpm::base {

// The file's first line (without its line feed; at most 4 KiB read). Throws
// std::runtime_error with a one-line reason that never holds the secret: "PATH: cannot open:
// No such file or directory", "PATH: group or others may read it (mode 0640): chmod 600 PATH",
// "PATH: empty", "PATH: not a regular file".
std::string read_secret_file(const std::string& path);

// The whole of a private file handed to another library (a TLS client key), with the same
// checks: it exists, is a regular file (a FIFO is refused, never waited on), and neither group
// nor others may read it; at most 64 KiB. Throws as read_secret_file, or "PATH: larger than N
// bytes".
std::string read_private_file(const std::string& path);

}  // namespace ibpm::base
