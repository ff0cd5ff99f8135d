// SPDX-License-Identifier: MIT
// The output folder is written whole or not at all: the files go into a new sibling folder,
// which then takes the output folder's place in one rename (an exchange when it exists), so a
// monitoring daemon reloading meanwhile sees the old configuration or the new one.
#pragma once

#include <string>

#include "config_files.hpp"

namespace ibpm::nagios_config {

// Throws std::runtime_error with a one-line reason. An existing folder must hold only files
// this command writes (ibpm-*): the folder is replaced, and an operator's own files must not
// go with it.
void write_output_dir(const std::string& dir, const ConfigFiles& files);

}  // namespace ibpm::nagios_config
