// SPDX-License-Identifier: MIT

#include "sim/client_slot.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <random>
#include <string>
#include <system_error>

namespace ibpm::sim {
namespace {

int open_slot(const std::filesystem::path& dir, int index) {
  std::filesystem::path path = dir / std::to_string(index);
  int fd = open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
  if (fd < 0)
    throw std::system_error(errno, std::generic_category(), "cannot open " + path.string());
  return fd;
}

}  // namespace

ClientSlot::ClientSlot(const std::filesystem::path& slots_dir) {
  std::error_code ec;
  std::filesystem::create_directories(slots_dir, ec);
  // flock locks belong to an open file description: every slot taken opens its own, so
  // threads of one process exclude each other as well as processes do.
  for (int i = 0; i < kClientSlots; ++i) {
    int fd = open_slot(slots_dir, i);
    if (flock(fd, LOCK_EX | LOCK_NB) == 0) {
      fd_ = fd;
      return;
    }
    close(fd);
  }
  // All taken: queue on one of them.
  static thread_local std::minstd_rand engine{std::random_device{}()};
  int fd = open_slot(slots_dir, static_cast<int>(engine() % kClientSlots));
  while (flock(fd, LOCK_EX) != 0) {
    if (errno != EINTR) {
      int e = errno;
      close(fd);
      throw std::system_error(e, std::generic_category(), "flock on a client slot");
    }
  }
  fd_ = fd;
}

ClientSlot::~ClientSlot() {
  if (fd_ >= 0) close(fd_);  // closing releases the lock
}

}  // namespace ibpm::sim
