// SPDX-License-Identifier: MIT

#include "base/file_lock.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <stdexcept>

#include "base/regular_file.hpp"

namespace ibpm::base {

namespace {

std::string lock_path(const std::string& path) {
  const std::filesystem::path file(path);
  return (file.parent_path() / ("." + file.filename().string() + ".lock")).string();
}

}  // namespace

FileLock::FileLock(const std::string& path) {
  const std::string lock = lock_path(path);
  fd_ = open_regular_file(lock, O_RDWR | O_CREAT, FinalLink::refuse);
  // Held only while a file is written: waiting without a limit is fine.
  while (::flock(fd_, LOCK_EX) != 0) {
    if (errno == EINTR) continue;
    const int error = errno;
    ::close(fd_);
    throw std::runtime_error(lock + ": cannot lock: " + std::strerror(error));
  }
}

FileLock::~FileLock() {
  if (fd_ >= 0) ::close(fd_);  // closing the only descriptor releases the flock
}

}  // namespace ibpm::base
