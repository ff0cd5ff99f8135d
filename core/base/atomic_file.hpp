// SPDX-License-Identifier: MIT
// Files other runs read (baselines, caches, dumps) are replaced whole or not at all: the content
// goes to a sibling temporary file, which is renamed over the target only once it is complete.
#pragma once

#include <functional>
#include <ostream>
#include <string>

namespace ibpm::base {

// `write` fills the temporary file named by its argument (for writers that take a path);
// it returns false or throws on failure. Throws std::runtime_error naming `path` on failure;
// the temporary file never survives a failure.
void replace_file(const std::string& path, const std::function<bool(const std::string&)>& write);

// The same for writers to a stream.
void replace_file_with(const std::string& path, const std::function<void(std::ostream&)>& write);

}  // namespace ibpm::base
