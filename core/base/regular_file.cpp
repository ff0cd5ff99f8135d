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

unsigned long long file_size(int fd) {
  struct stat st {};
  if (::fstat(fd, &st) != 0) return 0;
  return static_cast<unsigned long long>(st.st_size);
}

}  // namespace ibpm::base
