// SPDX-License-Identifier: MIT
// The file a run leaves for the next, as a file: what stands at its path instead (a link, a FIFO,
// something too large, something damaged) is refused unread or named, never waited on or
// followed, and this run's state replaces it.
#include <sys/stat.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "sm/remembered_file.hpp"
#include "support/temp_dir.hpp"

using namespace ibpm;
using ibpm::test::TempDir;

namespace {

std::string read_all(const std::string& path) {
  std::ifstream in(path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

sm::Remembered some_state() {
  sm::Remembered r;
  r.sampled = sm::Clock::time_point(std::chrono::milliseconds(1'700'000'000'123));
  r.moved = r.sampled;
  r.master = sm::SmSeen{0x100001, 1, "h1 HCA-1", 10, 3, 42u};
  r.sms = {*r.master};
  return r;
}

}  // namespace

TEST_CASE("sm state file: missing is no memory, written is read back") {
  TempDir dir("sm-state");
  const std::string path = dir / "mlx5_0-1.state";
  CHECK_FALSE(sm::read_remembered(path));
  sm::write_remembered(path, some_state());
  const auto back = sm::read_remembered(path);
  REQUIRE(back);
  CHECK(back->master->act_count == 42u);
}

TEST_CASE("sm state file: a FIFO is refused unread and replaced") {
  TempDir dir("sm-state-fifo");
  const std::string path = dir / "mlx5_0-1.state";
  REQUIRE(::mkfifo(path.c_str(), 0600) == 0);
  // Never waited on (no writer will ever come).
  CHECK_THROWS_WITH(sm::read_remembered(path), path + ": not a regular file");
  const sm::Recalled recalled = sm::recall_remembered(path);
  CHECK_FALSE(recalled.remembered);
  CHECK(recalled.problem == path + ": not a regular file");
  sm::write_remembered(path, some_state());
  CHECK(std::filesystem::is_regular_file(path));
  CHECK(sm::recall_remembered(path).remembered);
}

TEST_CASE("sm state file: a link planted at it is not followed, and is replaced") {
  TempDir dir("sm-state-link");
  const std::string victim = dir / "victim";
  sm::write_remembered(victim, some_state());
  const std::string kept = read_all(victim);
  const std::string path = dir / "mlx5_0-1.state";
  std::filesystem::create_symlink(victim, path);
  CHECK_THROWS_WITH(sm::read_remembered(path), path + ": is a symbolic link (not followed)");
  const sm::Recalled recalled = sm::recall_remembered(path);
  CHECK_FALSE(recalled.remembered);
  CHECK(recalled.problem == path + ": is a symbolic link (not followed)");
  sm::write_remembered(path, sm::Remembered{});
  CHECK_FALSE(std::filesystem::is_symlink(path));
  CHECK(read_all(victim) == kept);
  // A link to nothing is no missing file either.
  const std::string dangling = dir / "mlx5_0-2.state";
  std::filesystem::create_symlink(dir / "nowhere", dangling);
  CHECK(sm::recall_remembered(dangling).problem ==
        dangling + ": is a symbolic link (not followed)");
}

TEST_CASE("sm state file: a damaged or oversized file is named, then replaced") {
  TempDir dir("sm-state-damaged");
  const std::string path = dir / "mlx5_0-1.state";
  std::ofstream(path) << "ibpm-sm 1\nsampled soon\n";
  const sm::Recalled damaged = sm::recall_remembered(path);
  CHECK_FALSE(damaged.remembered);
  CHECK(damaged.problem == path + ": unexpected line 'sampled soon'");
  sm::write_remembered(path, some_state());
  const sm::Recalled replaced = sm::recall_remembered(path);
  CHECK(replaced.problem.empty());
  CHECK(replaced.remembered);

  // A file of ours never grows this large; it is refused without being read whole.
  {
    std::ofstream big(path);
    big << "ibpm-sm 1\n";
  }
  std::filesystem::resize_file(path, sm::kMaxRememberedBytes + 1);
  CHECK(sm::recall_remembered(path).problem == path + ": larger than " +
                                                   std::to_string(sm::kMaxRememberedBytes) +
                                                   " bytes, not an ibpm-sm file");
}
