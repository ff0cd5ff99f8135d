// SPDX-License-Identifier: MIT
// Node locks: one lock file, one descriptor whatever the number of nodes, ranges merged along the
// topology, exclusion between processes and between threads of one process, deadlines.
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <filesystem>

#include "state/port_store.hpp"
#include "support/direct_store.hpp"
#include "support/temp_dir.hpp"

using namespace ibpm;
using namespace ibpm::state;
using namespace ibpm::state::test;
using ibpm::test::TempDir;
using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

namespace {
constexpr Guid kLockedNode = 0x0002c90300a1b2c3;

std::size_t open_descriptors() {
  std::size_t count = 0;
  for ([[maybe_unused]] const auto& entry : std::filesystem::directory_iterator("/proc/self/fd"))
    ++count;
  return count;
}
}  // namespace

TEST_CASE("lock ranges merge nodes that follow each other among the known ones") {
  // Consecutive GUIDs merge on their own.
  CHECK(lock_ranges({3, 1, 2, 2}, {}) == std::vector<GuidRange>{{1, 3}});
  CHECK(lock_ranges({1, 3}, {}) == std::vector<GuidRange>{{1, 1}, {3, 3}});
  // 10 and 20 merge when no known node lies between them, not when 15 does.
  CHECK(lock_ranges({10, 20}, {10, 20, 30}) == std::vector<GuidRange>{{10, 20}});
  CHECK(lock_ranges({10, 20}, {10, 15, 20}) == std::vector<GuidRange>{{10, 10}, {20, 20}});
  // A node the topology does not know stays a range of its own.
  CHECK(lock_ranges({10, 20}, {10}) == std::vector<GuidRange>{{10, 10}, {20, 20}});
  // The top bit is dropped (file offsets are signed).
  CHECK(lock_ranges({0x8000000000000005}, {}) == std::vector<GuidRange>{{5, 5}});
}

TEST_CASE("thousands of nodes are locked through one descriptor and, along a topology, one range") {
  TempDir dir("lock-many");
  PortStore store(direct_options(dir));
  std::vector<Guid> nodes;
  for (Guid g = 0; g < 5000; ++g) nodes.push_back(0x0002c90300000000 + g * 7);
  const std::size_t before = open_descriptors();
  {
    NodeLocks locks = store.lock_nodes(nodes, Clock::now() + 1s, nodes);
    CHECK(locks.held());
    CHECK(locks.ranges() == 1);
    CHECK(open_descriptors() == before + 1);
    // Without the topology every node is a range of its own: still one descriptor.
    NodeLocks others = NodeLocks::acquire(dir.path().string() + "/other", nodes, Clock::now() + 1s);
    CHECK(others.ranges() == nodes.size());
    CHECK(open_descriptors() == before + 2);
  }
  CHECK(open_descriptors() == before);
  CHECK(std::filesystem::file_size(node_locks_path(direct_options(dir).state_dir)) == 0);
}

TEST_CASE("a node lock held by another process times out at the deadline") {
  TempDir dir("lock");
  const StoreOptions options = direct_options(dir);
  int ready[2], done[2];
  REQUIRE(::pipe(ready) == 0);
  REQUIRE(::pipe(done) == 0);
  const pid_t pid = ::fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    int status = 0;
    try {
      PortStore store(options);
      NodeLocks lock = store.lock_nodes({kLockedNode}, Clock::now() + 5s);
      char c = 'x';
      if (::write(ready[1], &c, 1) != 1) status = 1;
      if (::read(done[0], &c, 1) < 0) status = 1;  // until the parent is done
    } catch (...) {
      status = 1;
    }
    ::_exit(status);
  }
  char c = 0;
  REQUIRE(::read(ready[0], &c, 1) == 1);

  PortStore store(options);
  const auto start = Clock::now();
  CHECK_THROWS_WITH(store.lock_nodes({kLockedNode}, start + 200ms),
                    node_locks_path(options.state_dir) + ": node " + format_guid(kLockedNode) +
                        " locked by another run");
  const auto waited = Clock::now() - start;
  CHECK(waited >= 200ms);
  CHECK(waited < 2s);
  // A range that covers the held node waits for it too.
  CHECK_THROWS_AS(store.lock_nodes({kLockedNode - 1, kLockedNode + 1}, Clock::now() + 50ms,
                                   {kLockedNode - 1, kLockedNode + 1}),
                  StateError);
  CHECK(store.lock_nodes({kLockedNode + 1}, Clock::now()).held());  // other nodes are not affected

  REQUIRE(::write(done[1], &c, 1) == 1);
  int status = 0;
  REQUIRE(::waitpid(pid, &status, 0) == pid);
  CHECK(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 0);
  // The lock went with the process.
  CHECK(store.lock_nodes({kLockedNode}, Clock::now() + 1s).held());
  for (int fd : {ready[0], ready[1], done[0], done[1]}) ::close(fd);
}

TEST_CASE("node locks exclude each other within a process too and can be moved") {
  TempDir dir("lock-local");
  PortStore store(direct_options(dir));
  NodeLocks first = store.lock_nodes({kLockedNode}, Clock::now());
  CHECK(std::filesystem::exists(node_locks_path(direct_options(dir).state_dir)));
  CHECK_THROWS_AS(store.lock_nodes({kLockedNode}, Clock::now()), StateError);
  CHECK(store.lock_nodes({0x1234}, Clock::now()).held());  // other nodes are not affected

  NodeLocks moved = std::move(first);
  CHECK_FALSE(first.held());
  CHECK(moved.held());
  CHECK_THROWS_AS(store.lock_nodes({kLockedNode}, Clock::now()), StateError);
  moved.release();
  CHECK(store.lock_nodes({kLockedNode}, Clock::now()).held());
}

TEST_CASE("a link planted at node.locks is not followed") {
  // As in a group-writable state folder: node.locks -> a file the run must never create.
  TempDir dir("locks-link");
  const auto victim = dir.path() / "nologin";
  std::filesystem::create_symlink(victim, node_locks_path(dir.path().string()));
  CHECK_THROWS_WITH(NodeLocks::acquire(dir.path().string(), {kNode}, Clock::now() + 1s),
                    node_locks_path(dir.path().string()) + ": is a symbolic link (not followed)");
  CHECK_FALSE(std::filesystem::exists(victim));
}
