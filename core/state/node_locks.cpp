// SPDX-License-Identifier: MIT

#include "state/node_locks.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <thread>
#include <utility>

#include "base/regular_file.hpp"
#include "layout/state_layout.hpp"
#include "state/directories.hpp"
#include "state/state_error.hpp"

namespace ibpm::state {

namespace {

// File offsets are signed: the GUID's top bit is dropped. Two GUIDs that differ only there share
// a lock, which costs a wait, never a wrong result.
constexpr Guid kOffsetMask = static_cast<Guid>(std::numeric_limits<off_t>::max());

off_t offset_of(Guid guid) { return static_cast<off_t>(guid & kOffsetMask); }

// One non-blocking lock call: true when taken, false when another run holds part of it.
bool try_lock(int fd, const GuidRange& range, const std::string& path) {
  struct flock lock {};
  lock.l_type = F_WRLCK;
  lock.l_whence = SEEK_SET;
  lock.l_start = offset_of(range.first);
  lock.l_len = offset_of(range.last) - offset_of(range.first) + 1;
  for (;;) {
    if (::fcntl(fd, F_OFD_SETLK, &lock) == 0) return true;
    if (errno == EINTR) continue;
    if (errno == EAGAIN || errno == EACCES) return false;
    throw StateError(path + ": cannot lock: " + std::strerror(errno));
  }
}

// "node 0x..." or "nodes 0x... to 0x...".
std::string describe(const GuidRange& range) {
  if (range.first == range.last) return "node " + format_guid(range.first);
  return "nodes " + format_guid(range.first) + " to " + format_guid(range.last);
}

}  // namespace

std::string node_locks_path(const std::string& state_dir) {
  return layout::StateLayout(state_dir).node_locks();
}

std::vector<GuidRange> lock_ranges(std::vector<Guid> nodes, std::vector<Guid> known) {
  for (Guid& g : nodes) g &= kOffsetMask;
  for (Guid& g : known) g &= kOffsetMask;
  std::sort(nodes.begin(), nodes.end());
  nodes.erase(std::unique(nodes.begin(), nodes.end()), nodes.end());
  std::sort(known.begin(), known.end());
  known.erase(std::unique(known.begin(), known.end()), known.end());

  std::vector<GuidRange> ranges;
  for (Guid node : nodes) {
    if (!ranges.empty()) {
      GuidRange& last = ranges.back();
      // Merge when the node follows at once, or when no known node lies in between.
      const auto between = std::upper_bound(known.begin(), known.end(), last.last);
      const bool nothing_between = std::binary_search(known.begin(), known.end(), last.last) &&
                                   std::binary_search(known.begin(), known.end(), node) &&
                                   between != known.end() && *between == node;
      if (node == last.last + 1 || nothing_between) {
        last.last = node;
        continue;
      }
    }
    ranges.push_back({node, node});
  }
  return ranges;
}

NodeLocks::NodeLocks(NodeLocks&& other) noexcept
    : fd_(std::exchange(other.fd_, -1)), ranges_(std::exchange(other.ranges_, 0)) {}

NodeLocks& NodeLocks::operator=(NodeLocks&& other) noexcept {
  if (this != &other) {
    release();
    fd_ = std::exchange(other.fd_, -1);
    ranges_ = std::exchange(other.ranges_, 0);
  }
  return *this;
}

NodeLocks::~NodeLocks() { release(); }

void NodeLocks::release() {
  // Closing the descriptor releases every lock taken through it.
  if (fd_ >= 0) ::close(std::exchange(fd_, -1));
  ranges_ = 0;
}

NodeLocks NodeLocks::acquire(const std::string& state_dir, const std::vector<Guid>& nodes,
                             std::chrono::steady_clock::time_point deadline,
                             const std::vector<Guid>& known) {
  using namespace std::chrono_literals;
  make_directories(state_dir);
  const std::string path = node_locks_path(state_dir);
  // A descriptor of our own: OFD locks conflict between open files, so threads of one process
  // exclude each other as separate processes do.
  // Not through a link: a check run as root must not create or lock another file.
  int fd = -1;
  try {
    fd = base::open_regular_file(path, O_RDWR | O_CREAT, base::FinalLink::refuse);
  } catch (const std::runtime_error& e) {
    throw StateError(e.what());
  }
  NodeLocks locks;
  locks.fd_ = fd;
  // F_OFD_SETLKW cannot wait with a timeout: poll, briefly at first, no later than the deadline.
  for (const GuidRange& range : lock_ranges(nodes, known)) {
    auto pause = std::chrono::steady_clock::duration(1ms);
    while (!try_lock(fd, range, path)) {
      const auto now = std::chrono::steady_clock::now();
      if (now >= deadline)
        throw StateError(path + ": " + describe(range) + " locked by another run");
      std::this_thread::sleep_for(
          std::min<std::chrono::steady_clock::duration>(pause, deadline - now));
      pause = std::min<std::chrono::steady_clock::duration>(pause * 2, 50ms);
    }
    ++locks.ranges_;
  }
  return locks;
}

}  // namespace ibpm::state
