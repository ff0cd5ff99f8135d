// SPDX-License-Identifier: MIT
// Opening an operator's input file (thresholds, delegation) with one clear reason when it cannot
// be read.
#pragma once

#include <fstream>
#include <string>

namespace ibpm::base {

// Throws std::runtime_error "PATH: cannot read (reason)"; a directory, which opens fine and
// then reads as empty, is refused too.
std::ifstream open_input_file(const std::string& path);

}  // namespace ibpm::base
