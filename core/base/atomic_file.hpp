// SPDX-License-Identifier: MIT
// Files other runs read (baselines, caches, dumps, sample records) are replaced whole or not at
// all: the content goes to a temporary of our own beside the target (see temporary.hpp), is
// flushed to the disk, and only then renamed over the target. A link planted at the target is
// replaced, never followed.
#pragma once

#include <functional>
#include <ostream>
#include <string>

namespace ibpm::base {

// `write` creates and fills the file named by its argument (for writers that take a path; the
// name is inside a folder of our own); it returns false or throws on failure. Throws
// std::runtime_error naming `path` on failure; the temporary never survives a failure.
void replace_file(const std::string& path, const std::function<bool(const std::string&)>& write);

// The same for writers to a stream. The file is readable by all (0644), or has `mode` (0600 for
// a file that holds secrets: it is never readable by others, not even for a moment). A failed
// write names its reason ("cannot write PATH: No space left on device").
void replace_file_with(const std::string& path, const std::function<void(std::ostream&)>& write,
                       unsigned mode = 0644);

}  // namespace ibpm::base
