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
#include <csignal>
#include <ctime>
#include <string>

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

// A child process that holds a lock of `type` on `path` (F_WRLCK as rrdcached's write threads and
// librrd's update take it, F_RDLCK as librrd's fetch) for `hold`, then exits; returns once the
// lock is held.
pid_t hold_lock(const std::string& path, short type, std::chrono::milliseconds hold) {
  int ready[2];
  REQUIRE(::pipe(ready) == 0);
  const pid_t pid = ::fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    const int fd = ::open(path.c_str(), O_RDWR);
    struct flock lock {};
    lock.l_type = type;
    lock.l_whence = SEEK_SET;
    if (fd < 0 || ::fcntl(fd, F_SETLK, &lock) != 0) ::_exit(1);
    [[maybe_unused]] const ssize_t n = ::write(ready[1], "x", 1);
    ::usleep(static_cast<useconds_t>(hold.count() * 1000));
    ::_exit(0);
  }
  char byte = 0;
  ::close(ready[1]);
  REQUIRE(::read(ready[0], &byte, 1) == 1);
  ::close(ready[0]);
  return pid;
}

}  // namespace

TEST_CASE("a read waits out a writer's lock on the file") {
  const ibpm::test::TempDir dir("archive-locked");
  const std::string path = small_rrd(dir);
  const std::time_t now = std::time(nullptr);
  const pid_t writer = hold_lock(path, F_WRLCK, std::chrono::milliseconds(50));
  const auto start = std::chrono::steady_clock::now();
  const ibpm::state::FetchedRows rows = read_any_archive(path, "AVERAGE", now - 300, now);
  const auto waited = std::chrono::steady_clock::now() - start;
  int status = 0;
  ::waitpid(writer, &status, 0);
  CHECK(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 0);
  CHECK(rows.sources == 1);
  CHECK(rows.rows() >= 4);
  CHECK(waited >= std::chrono::milliseconds(20));  // it did wait for the writer
}

TEST_CASE("a writer that never lets go is named after a while") {
  const ibpm::test::TempDir dir("archive-held");
  const std::string path = small_rrd(dir);
  const std::time_t now = std::time(nullptr);
  const pid_t writer = hold_lock(path, F_WRLCK, std::chrono::seconds(3));
  try {
    read_any_archive(path, "AVERAGE", now - 300, now);
    FAIL("read a file its writer held");
  } catch (const StateError& e) {
    CHECK_THAT(e.what(), Catch::Contains("cannot read its history: could not lock RRD"));
  }
  ::kill(writer, SIGKILL);
  ::waitpid(writer, nullptr, 0);
}

TEST_CASE("an update of the files waits out a report's read lock") {
  const ibpm::test::TempDir dir("archive-read-locked");
  const std::string path = small_rrd(dir);
  const pid_t reader = hold_lock(path, F_RDLCK, std::chrono::milliseconds(50));
  const ibpm::state::RrdBackend files("");
  const std::time_t now = std::time(nullptr);
  CHECK_NOTHROW(files.update(path, std::to_string(now - 30) + ":42"));
  ::waitpid(reader, nullptr, 0);
  CHECK(rrd_last_r(path.c_str()) == now - 30);
}
