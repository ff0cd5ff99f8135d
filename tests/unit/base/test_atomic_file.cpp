// SPDX-License-Identifier: MIT

#include <sys/resource.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <csignal>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "base/atomic_file.hpp"
#include "support/temp_dir.hpp"

namespace fs = std::filesystem;

namespace {
std::string read(const fs::path& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}
}  // namespace

TEST_CASE("a failed write leaves the old file and no temporary behind") {
  const ibpm::test::TempDir tmp("atomic");
  const fs::path dir = tmp.path();
  fs::path target = dir / "baseline";
  ibpm::base::replace_file_with(target.string(), [](std::ostream& out) { out << "first\n"; });
  CHECK(read(target) == "first\n");

  CHECK_THROWS_WITH(ibpm::base::replace_file_with(target.string(),
                                                  [](std::ostream& out) {
                                                    out << "half";
                                                    throw std::runtime_error("writer failed");
                                                  }),
                    "writer failed");
  CHECK_THROWS_WITH(
      ibpm::base::replace_file(target.string(), [](const std::string&) { return false; }),
      Catch::Contains("cannot write " + target.string()));
  CHECK(read(target) == "first\n");
  CHECK(std::distance(fs::directory_iterator(dir), fs::directory_iterator{}) == 1);

  ibpm::base::replace_file_with(target.string(), [](std::ostream& out) { out << "second\n"; });
  CHECK(read(target) == "second\n");
  CHECK_THROWS(
      ibpm::base::replace_file_with((dir / "no/such/dir/file").string(), [](std::ostream&) {}));
}

TEST_CASE("a link planted at the target is replaced, its target left alone") {
  const ibpm::test::TempDir tmp("atomic-link");
  const fs::path victim = tmp.path() / "victim";
  std::ofstream(victim) << "keep\n";
  const fs::path target = tmp.path() / "baseline";
  fs::create_symlink(victim, target);
  ibpm::base::replace_file_with(target.string(), [](std::ostream& out) { out << "new\n"; });
  CHECK(read(victim) == "keep\n");
  CHECK_FALSE(fs::is_symlink(target));
  CHECK(read(target) == "new\n");
  CHECK((fs::status(target).permissions() & fs::perms::all) ==
        (fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read |
         fs::perms::others_read));
}

TEST_CASE("the temporaries of killed runs are removed by the next writer") {
  const ibpm::test::TempDir tmp("atomic-stale");
  const fs::path target = tmp.path() / "record";
  const fs::path stale = tmp.path() / ".record.tmp-a1B2c3";  // a run killed an hour ago
  const fs::path young = tmp.path() / ".record.tmp-d4E5f6";  // a run writing right now
  const fs::path other = tmp.path() / ".other.tmp-a1B2c3";   // another target's
  for (const fs::path& p : {stale, young, other}) std::ofstream(p) << "half";
  const auto hour_ago = fs::file_time_type::clock::now() - std::chrono::hours(1);
  fs::last_write_time(stale, hour_ago);
  fs::last_write_time(other, hour_ago);
  ibpm::base::replace_file_with(target.string(), [](std::ostream& out) { out << "whole\n"; });
  CHECK_FALSE(fs::exists(stale));
  CHECK(fs::exists(young));
  CHECK(fs::exists(other));
  CHECK(read(target) == "whole\n");
}

TEST_CASE("a write cut short by a file size limit names the reason and leaves the old file") {
  const ibpm::test::TempDir tmp("atomic-efbig");
  const fs::path target = tmp.path() / "record";
  ibpm::base::replace_file_with(target.string(), [](std::ostream& out) { out << "old\n"; });
  // As under `ulimit -f`: with SIGXFSZ ignored (as the commands do), the write fails with EFBIG.
  struct rlimit before {};
  REQUIRE(::getrlimit(RLIMIT_FSIZE, &before) == 0);
  const auto old_handler = std::signal(SIGXFSZ, SIG_IGN);
  struct rlimit small = before;
  small.rlim_cur = 4096;
  REQUIRE(::setrlimit(RLIMIT_FSIZE, &small) == 0);
  std::string reason;
  try {
    ibpm::base::replace_file_with(target.string(),
                                  [](std::ostream& out) { out << std::string(100'000, 'x'); });
  } catch (const std::runtime_error& e) {
    reason = e.what();
  }
  ::setrlimit(RLIMIT_FSIZE, &before);
  std::signal(SIGXFSZ, old_handler);
  CHECK(reason == "cannot write " + target.string() + ": " + std::strerror(EFBIG));
  CHECK(read(target) == "old\n");
  CHECK(std::distance(fs::directory_iterator(tmp.path()), fs::directory_iterator{}) == 1);
}
