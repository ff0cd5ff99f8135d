// SPDX-License-Identifier: MIT
// Reading a file's rows while another process writes it, and writing it while another reads it:
// librrd locks without waiting, so each tries again while the other holds the file, and says so
// only when it never lets go.
#include <fcntl.h>
#include <rrd.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <ctime>
#include <string>
#include <thread>

#include "state/archive_rows.hpp"
#include "state/rrd_backend.hpp"
#include "state/state_error.hpp"
#include "support/temp_dir.hpp"

using ibpm::state::read_any_archive;
using ibpm::state::StateError;

namespace {

// A small RRD file with a minute of rows ending about now.
std::string small_rrd(const ibpm::test::TempDir& dir) {
  const std::string path = dir / "locked.rrd";
  const std::time_t start = std::time(nullptr) - 600;
  const char* args[] = {"DS:x:GAUGE:120:U:U", "RRA:AVERAGE:0.5:1:60"};
  rrd_clear_error();
  REQUIRE(rrd_create_r(path.c_str(), 60, start, 2, args) == 0);
  return path;
}

// A lock of `type` on `path` held by a child process (F_WRLCK as rrdcached's write threads and
// librrd's update take it, F_RDLCK as librrd's fetch) until let_go(); held once constructed.
class HeldLock {
 public:
  HeldLock(const std::string& path, short type) {
    int ready[2], release[2];
    REQUIRE(::pipe(ready) == 0);
    REQUIRE(::pipe(release) == 0);
    pid_ = ::fork();
    REQUIRE(pid_ >= 0);
    if (pid_ == 0) {
      ::close(release[1]);
      const int fd = ::open(path.c_str(), O_RDWR);
      struct flock lock {};
      lock.l_type = type;
      lock.l_whence = SEEK_SET;
      if (fd < 0 || ::fcntl(fd, F_SETLK, &lock) != 0) ::_exit(1);
      [[maybe_unused]] ssize_t n = ::write(ready[1], "x", 1);
      char byte = 0;
      n = ::read(release[0], &byte, 1);  // until let_go(), or the test's end closes the pipe
      ::_exit(0);
    }
    ::close(ready[1]);
    ::close(release[0]);
    release_ = release[1];
    char byte = 0;
    REQUIRE(::read(ready[0], &byte, 1) == 1);
    ::close(ready[0]);
  }
  ~HeldLock() { let_go(); }
  HeldLock(const HeldLock&) = delete;
  HeldLock& operator=(const HeldLock&) = delete;

  void let_go() {
    if (release_ < 0) return;
    [[maybe_unused]] const ssize_t n = ::write(release_, "x", 1);
    ::close(release_);
    release_ = -1;
    ::waitpid(pid_, nullptr, 0);
  }

 private:
  pid_t pid_ = -1;
  int release_ = -1;
};

// Lets `held` go after `after`, from a thread of its own, while the test waits on the file.
std::jthread let_go_after(HeldLock& held, std::chrono::milliseconds after) {
  return std::jthread([&held, after] {
    std::this_thread::sleep_for(after);
    held.let_go();
  });
}

}  // namespace

TEST_CASE("a read waits out a writer's lock on the file") {
  const ibpm::test::TempDir dir("archive-locked");
  const std::string path = small_rrd(dir);
  const std::time_t now = std::time(nullptr);
  HeldLock writer(path, F_WRLCK);
  // While it is held, librrd alone refuses the read.
  time_t start = now - 300, end = now;
  unsigned long step = 0, sources = 0;
  char** names = nullptr;
  rrd_value_t* data = nullptr;
  rrd_clear_error();
  REQUIRE(rrd_fetch_r(path.c_str(), "AVERAGE", &start, &end, &step, &sources, &names, &data) != 0);
  CHECK_THAT(rrd_get_error(), Catch::Contains("could not lock RRD"));
  rrd_clear_error();
  std::jthread later = let_go_after(writer, std::chrono::milliseconds(30));
  const ibpm::state::FetchedRows rows = read_any_archive(path, "AVERAGE", now - 300, now);
  later.join();
  CHECK(rows.sources == 1);
  CHECK(rows.rows() >= 4);
}

TEST_CASE("a writer that never lets go is named after a while") {
  const ibpm::test::TempDir dir("archive-held");
  const std::string path = small_rrd(dir);
  const std::time_t now = std::time(nullptr);
  HeldLock writer(path, F_WRLCK);
  try {
    read_any_archive(path, "AVERAGE", now - 300, now);
    FAIL("read a file its writer held");
  } catch (const StateError& e) {
    CHECK_THAT(e.what(), Catch::Contains("cannot read its history: could not lock RRD"));
  }
}

TEST_CASE("an update of the files waits out a report's read lock") {
  const ibpm::test::TempDir dir("archive-read-locked");
  const std::string path = small_rrd(dir);
  HeldLock reader(path, F_RDLCK);
  const ibpm::state::RrdBackend files("");
  const std::time_t now = std::time(nullptr);
  std::jthread later = let_go_after(reader, std::chrono::milliseconds(30));
  CHECK_NOTHROW(files.update(path, std::to_string(now - 30) + ":42"));
  later.join();
  CHECK(rrd_last_r(path.c_str()) == now - 30);
}
