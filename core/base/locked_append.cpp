// SPDX-License-Identifier: MIT

#include "base/locked_append.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>

namespace ibpm::base {

LockedAppend::LockedAppend(std::string path) : path_(std::move(path)) {
  // Read access too: head() looks at the start of the file.
  fd_ = ::open(path_.c_str(), O_RDWR | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
  if (fd_ < 0) fail("cannot open", errno);
  // Writers hold the lock only while adding a few lines: waiting without a limit is fine.
  while (::flock(fd_, LOCK_EX) != 0) {
    if (errno == EINTR) continue;
    const int error = errno;
    ::close(fd_);
    fd_ = -1;
    fail("cannot lock", error);
  }
}

LockedAppend::~LockedAppend() {
  if (fd_ >= 0) ::close(fd_);  // closing the only descriptor releases the flock
}

void LockedAppend::fail(const std::string& what, int error) const {
  throw std::runtime_error(path_ + ": " + what + ": " + std::strerror(error));
}

std::uint64_t LockedAppend::size() const {
  struct stat st {};
  if (::fstat(fd_, &st) != 0) fail("cannot stat", errno);
  if (!S_ISREG(st.st_mode)) throw std::runtime_error(path_ + ": not a regular file");
  return static_cast<std::uint64_t>(st.st_size);
}

std::string LockedAppend::head(std::size_t length) const {
  std::string text(length, '\0');
  std::size_t got = 0;
  while (got < length) {
    const ssize_t n = ::pread(fd_, text.data() + got, length - got, static_cast<off_t>(got));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) fail("cannot read", errno);
    if (n == 0) break;
    got += static_cast<std::size_t>(n);
  }
  text.resize(got);
  return text;
}

void LockedAppend::append(std::string_view data) {
  const std::uint64_t before = size();
  std::size_t written = 0;
  while (written < data.size()) {
    const ssize_t n = ::write(fd_, data.data() + written, data.size() - written);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      const int error = n < 0 ? errno : EIO;
      // We hold the lock, so nobody else appended since `before`. Best effort: the write
      // error is the one to report.
      [[maybe_unused]] const int cut = ::ftruncate(fd_, static_cast<off_t>(before));
      fail("cannot write", error);
    }
    written += static_cast<std::size_t>(n);
  }
}

}  // namespace ibpm::base
