// SPDX-License-Identifier: MIT
// State directories are made on demand, parents first, readable by all (0755 before the umask)
// so that graphing tools running as other users can read the files.
#pragma once

#include <string>

namespace ibpm::state {

// mkdir -p; throws StateError("DIR: reason") when a component cannot be made or is not a directory.
void make_directories(const std::string& dir);

// Why others than the running user can plant files or links in `dir` (the run's own files are
// opened without following links, but a warning tells the operator to close it): "DIR is
// writable by its group (mode 2775) without the sticky bit ..." when group or others may write
// and the sticky bit is not set, or "DIR belongs to user N ..." when a run as root works in a
// folder another user owns. Empty when neither (or when `dir` cannot be read).
std::string shared_folder_warning(const std::string& dir);

}  // namespace ibpm::state
