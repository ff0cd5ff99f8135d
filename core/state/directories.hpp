// SPDX-License-Identifier: MIT
// State directories are made on demand, parents first, readable by all (0755 before the umask)
// so that graphing tools running as other users can read the files.
#pragma once

#include <string>

namespace ibpm::state {

// mkdir -p; throws StateError("DIR: reason") when a component cannot be made or is not a directory.
void make_directories(const std::string& dir);

}  // namespace ibpm::state
