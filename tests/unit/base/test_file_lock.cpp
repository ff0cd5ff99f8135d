// SPDX-License-Identifier: MIT
// FileLock: one writer at a time replaces a file, the lock held on ".NAME.lock" beside it.
#include <atomic>
#include <catch2/catch.hpp>
#include <chrono>
#include <filesystem>
#include <optional>
#include <thread>

#include "base/file_lock.hpp"
#include "support/temp_dir.hpp"

using namespace std::chrono_literals;

TEST_CASE("FileLock: a second writer waits until the first releases the file") {
  ibpm::test::TempDir dir("file-lock");
  const std::string path = (dir.path() / "ibpm.prom").string();
  std::atomic<bool> second_has_it{false};
  std::optional<ibpm::base::FileLock> first;
  first.emplace(path);
  CHECK(std::filesystem::is_regular_file(dir.path() / ".ibpm.prom.lock"));
  std::thread second([&] {
    const ibpm::base::FileLock lock(path);  // a descriptor of its own: flock excludes it
    second_has_it = true;
  });
  std::this_thread::sleep_for(200ms);
  CHECK_FALSE(second_has_it.load());
  first.reset();
  second.join();
  CHECK(second_has_it.load());
}

TEST_CASE("FileLock: a link at the lock file is refused") {
  ibpm::test::TempDir dir("file-lock-link");
  std::filesystem::create_symlink(dir.path() / "elsewhere", dir.path() / ".ibpm.prom.lock");
  CHECK_THROWS_WITH(ibpm::base::FileLock((dir.path() / "ibpm.prom").string()),
                    Catch::Contains(".ibpm.prom.lock"));
}
