// Runs on the same node serialize: an exclusive flock on the node's state directory, held from
// reading the previous sample to writing the new one, so that two runs never both take the same
// previous sample or write out of order. Locking the directory itself leaves no lock files
// behind; the lock goes with the process, so a crashed run never leaves a node locked.
#pragma once

#include <chrono>
#include <string>

namespace ibpm::state {

class NodeLock {
 public:
  NodeLock() = default;  // holds nothing
  NodeLock(NodeLock&& other) noexcept;
  NodeLock& operator=(NodeLock&& other) noexcept;
  NodeLock(const NodeLock&) = delete;
  NodeLock& operator=(const NodeLock&) = delete;
  ~NodeLock();

  // Locks `dir` (made first when missing), waiting until `deadline`. Throws
  // StateError("DIR: locked by another run") when it is still held then, or naming DIR on errors.
  static NodeLock acquire(const std::string& dir, std::chrono::steady_clock::time_point deadline);

  bool held() const { return fd_ >= 0; }
  void release();

 private:
  explicit NodeLock(int fd) : fd_(fd) {}
  int fd_ = -1;
};

}  // namespace ibpm::state
