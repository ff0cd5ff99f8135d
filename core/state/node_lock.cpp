#include "state/node_lock.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <thread>
#include <utility>

#include "state/directories.hpp"
#include "state/state_error.hpp"

namespace ibpm::state {

NodeLock::NodeLock(NodeLock&& other) noexcept : fd_(std::exchange(other.fd_, -1)) {}

NodeLock& NodeLock::operator=(NodeLock&& other) noexcept {
  if (this != &other) {
    release();
    fd_ = std::exchange(other.fd_, -1);
  }
  return *this;
}

NodeLock::~NodeLock() { release(); }

void NodeLock::release() {
  // Closing the only descriptor of the open file releases its flock.
  if (fd_ >= 0) ::close(std::exchange(fd_, -1));
}

NodeLock NodeLock::acquire(const std::string& dir, std::chrono::steady_clock::time_point deadline) {
  using namespace std::chrono_literals;
  make_directories(dir);
  // A descriptor of our own: flock conflicts between open files, so threads of one process
  // exclude each other as separate processes do.
  const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) throw StateError(dir + ": cannot open: " + std::strerror(errno));
  NodeLock lock(fd);
  // flock cannot wait with a timeout: poll, briefly at first, and no later than the deadline.
  auto pause = std::chrono::steady_clock::duration(2ms);
  for (;;) {
    if (::flock(fd, LOCK_EX | LOCK_NB) == 0) return lock;
    if (errno == EINTR) continue;
    if (errno != EWOULDBLOCK) throw StateError(dir + ": cannot lock: " + std::strerror(errno));
    const auto now = std::chrono::steady_clock::now();
    if (now >= deadline) throw StateError(dir + ": locked by another run");
    std::this_thread::sleep_for(
        std::min<std::chrono::steady_clock::duration>(pause, deadline - now));
    pause = std::min<std::chrono::steady_clock::duration>(pause * 2, 50ms);
  }
}

}  // namespace ibpm::state
