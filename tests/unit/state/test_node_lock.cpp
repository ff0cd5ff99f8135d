#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <filesystem>

#include "state/port_store.hpp"
#include "temp_dir.hpp"

using namespace ibpm;
using namespace ibpm::state;
using namespace ibpm::state::test;
using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

namespace {
constexpr Guid kNode = 0x0002c90300a1b2c3;
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
      PortStore::NodeLock lock = store.lock_node(kNode, Clock::now() + 5s);
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
  CHECK_THROWS_WITH(store.lock_node(kNode, start + 200ms),
                    store.node_dir(kNode) + ": locked by another run");
  const auto waited = Clock::now() - start;
  CHECK(waited >= 200ms);
  CHECK(waited < 2s);

  REQUIRE(::write(done[1], &c, 1) == 1);
  int status = 0;
  REQUIRE(::waitpid(pid, &status, 0) == pid);
  CHECK(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 0);
  // The lock went with the process.
  CHECK(store.lock_node(kNode, Clock::now() + 1s).held());
  for (int fd : {ready[0], ready[1], done[0], done[1]}) ::close(fd);
}

TEST_CASE("node locks exclude each other within a process too and can be moved") {
  TempDir dir("lock-local");
  PortStore store(direct_options(dir));
  CHECK_FALSE(std::filesystem::exists(store.node_dir(kNode)));
  PortStore::NodeLock first = store.lock_node(kNode, Clock::now());
  CHECK(std::filesystem::is_directory(store.node_dir(kNode)));
  CHECK_THROWS_AS(store.lock_node(kNode, Clock::now()), StateError);
  CHECK(store.lock_node(0x1234, Clock::now()).held());  // other nodes are not affected

  PortStore::NodeLock moved = std::move(first);
  CHECK_FALSE(first.held());
  CHECK(moved.held());
  CHECK_THROWS_AS(store.lock_node(kNode, Clock::now()), StateError);
  moved.release();
  CHECK(store.lock_node(kNode, Clock::now()).held());
}
