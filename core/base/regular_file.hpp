// SPDX-License-Identifier: MIT
// Opening a file that must be a plain file: state files and logs in folders others may write
// to (a link planted there must not send our writes elsewhere), and inputs whose reader must
// not hang on a FIFO or read a device without end.
#pragma once

#include <cstddef>
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

// The same for a file that may be missing: -1 when it is (ENOENT).
int open_existing_regular_file(const std::string& path, FinalLink link);

// The size of the open regular file `fd`, in bytes.
unsigned long long file_size(int fd);

// Up to `length` bytes of `fd` from `offset` (fewer at the end of the file). Throws
// std::runtime_error("PATH: cannot read: reason").
std::string read_bytes(int fd, unsigned long long offset, std::size_t length,
                       const std::string& path);

// The whole of a regular file of at most `max_bytes` (an operator's input another library would
// otherwise open by path, where a FIFO would block it without end). Throws std::runtime_error as
// open_regular_file, or "PATH: larger than N bytes".
std::string read_regular_file(const std::string& path, std::size_t max_bytes);

// Closes the descriptor it holds when it goes.
struct FileDescriptor {
  int fd = -1;
  FileDescriptor() = default;
  explicit FileDescriptor(int fd_) : fd(fd_) {}
  FileDescriptor(const FileDescriptor&) = delete;
  FileDescriptor& operator=(const FileDescriptor&) = delete;
  ~FileDescriptor();
};

}  // namespace ibpm::base
