// SPDX-License-Identifier: MIT
// Runs on the same nodes serialize: while a run reads a node's previous samples, polls it and
// writes its new samples, no other run (process or thread) touches that node's state.
//
// Every node's lock lives in one file, STATE_DIR/node.locks: an open-file-description byte-range
// lock (F_OFD_SETLK) on the byte whose offset is the node's GUID. A run takes all its nodes through
// one descriptor, whatever the fabric's size: a sweep of 10,000 nodes holds one open file, not
// 10,000 (services run with 1,024 at most, and the simulator's shim fails long before). Nodes
// whose GUIDs follow each other among the nodes the run knows (`known`, the topology) are taken
// as one range, so a whole-fabric sweep takes a single lock. Ranges are taken in increasing
// order, so runs locking overlapping sets never wait on each other in a circle. The locks go with
// the descriptor: a crashed run never leaves a node locked, and the file itself stays empty.
#pragma once

#include <chrono>
#include <cstddef>
#include <string>
#include <vector>

#include "fabric/types.hpp"

namespace ibpm::state {

// STATE_DIR/node.locks.
std::string node_locks_path(const std::string& state_dir);

class NodeLocks {
 public:
  NodeLocks() = default;  // holds nothing
  NodeLocks(NodeLocks&& other) noexcept;
  NodeLocks& operator=(NodeLocks&& other) noexcept;
  NodeLocks(const NodeLocks&) = delete;
  NodeLocks& operator=(const NodeLocks&) = delete;
  ~NodeLocks();

  // Locks every node of `nodes` (any order, duplicates allowed), waiting until `deadline`.
  // `known`: every node the caller knows of (the topology), so that consecutive nodes among them
  // can be locked as one range; nodes missing from it are locked one by one. Makes the state
  // directory when missing. Throws StateError("STATE_DIR/node.locks: node 0x... locked by another
  // run")
  // when a lock is still held elsewhere at the deadline, or naming the file on errors.
  static NodeLocks acquire(const std::string& state_dir, const std::vector<Guid>& nodes,
                           std::chrono::steady_clock::time_point deadline,
                           const std::vector<Guid>& known = {});

  bool held() const { return fd_ >= 0; }
  std::size_t ranges() const { return ranges_; }  // lock calls that were needed
  void release();

 private:
  int fd_ = -1;
  std::size_t ranges_ = 0;
};

// [first, last] GUID ranges covering exactly `nodes`, merged where no other node of `known` lies
// between two of them (sorted, increasing). Exposed for tests.
struct GuidRange {
  Guid first = 0;
  Guid last = 0;
  friend bool operator==(const GuidRange&, const GuidRange&) = default;
};
std::vector<GuidRange> lock_ranges(std::vector<Guid> nodes, std::vector<Guid> known);

}  // namespace ibpm::state
