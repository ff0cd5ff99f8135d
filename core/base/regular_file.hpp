// Opening a file that must be a plain file: state files and logs in folders others may write
// to (a link planted there must not send our writes elsewhere), and inputs whose reader must
// not hang on a FIFO or read a device without end.
#pragma once

#include <string>

namespace ibpm::base {

enum class FinalLink {
  refuse,  // O_NOFOLLOW: a symbolic link at the path is an error (for files we write)
  follow,  // for inputs an operator names
};

// open(2) with `flags` | O_CLOEXEC | O_NONBLOCK (cleared again once open: a FIFO never blocks the
// open), `mode` for O_CREAT. Returns the descriptor; throws std::runtime_error
// "PATH: cannot open: REASON", "PATH: is a symbolic link (not followed)" or
// "PATH: not a regular file". ENOENT is "PATH: cannot open: No such file or directory".
int open_regular_file(const std::string& path, int flags, FinalLink link, unsigned mode = 0644);

// The size of the open regular file `fd`, in bytes.
unsigned long long file_size(int fd);

}  // namespace ibpm::base
