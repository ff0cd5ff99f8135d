// SPDX-License-Identifier: MIT

#include "base/regular_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>

namespace ibpm::base {

int open_regular_file(const std::string& path, int flags, FinalLink link, unsigned mode) {
  const int nofollow = link == FinalLink::refuse ? O_NOFOLLOW : 0;
  const int fd =
      ::open(path.c_str(), flags | nofollow | O_CLOEXEC | O_NONBLOCK, static_cast<mode_t>(mode));
  if (fd < 0) {
    if (errno == ELOOP && link == FinalLink::refuse)
      throw std::runtime_error(path + ": is a symbolic link (not followed)");
    throw std::runtime_error(path + ": cannot open: " + std::strerror(errno));
  }
  struct stat st {};
  if (::fstat(fd, &st) != 0) {
    const int error = errno;
    ::close(fd);
    throw std::runtime_error(path + ": cannot stat: " + std::strerror(error));
  }
  if (!S_ISREG(st.st_mode)) {
    ::close(fd);
    throw std::runtime_error(path + ": not a regular file");
  }
  ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK);
  return fd;
}

int open_existing_regular_file(const std::string& path, FinalLink link) {
  struct stat st {};
  if (::lstat(path.c_str(), &st) != 0 && errno == ENOENT) return -1;
  return open_regular_file(path, O_RDONLY, link);
}

unsigned long long file_size(int fd) {
  struct stat st {};
  if (::fstat(fd, &st) != 0) return 0;
  return static_cast<unsigned long long>(st.st_size);
}

std::string read_bytes(int fd, unsigned long long offset, std::size_t length,
                       const std::string& path) {
  std::string bytes(length, '\0');
  std::size_t got = 0;
  while (got < length) {
    const ssize_t n =
        ::pread(fd, bytes.data() + got, length - got, static_cast<off_t>(offset + got));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) throw std::runtime_error(path + ": cannot read: " + std::strerror(errno));
    if (n == 0) break;
    got += static_cast<std::size_t>(n);
  }
  bytes.resize(got);
  return bytes;
}

std::string read_regular_file(const std::string& path, std::size_t max_bytes) {
  const FileDescriptor file(open_regular_file(path, O_RDONLY, FinalLink::follow));
  std::string bytes = read_bytes(file.fd, 0, max_bytes + 1, path);
  if (bytes.size() > max_bytes)
    throw std::runtime_error(path + ": larger than " + std::to_string(max_bytes) + " bytes");
  return bytes;
}

FileDescriptor::~FileDescriptor() {
  if (fd >= 0) ::close(fd);
}

}  // namespace ibpm::base
