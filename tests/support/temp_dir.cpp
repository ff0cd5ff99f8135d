// SPDX-License-Identifier: MIT
// Unique names from the pid and a counter; removal ignores errors (the test has its verdict).
#include "support/temp_dir.hpp"

#include <unistd.h>

#include <atomic>

namespace ibpm::test {

TempDir::TempDir(const std::string& name) {
  static std::atomic<int> serial{0};
  path_ = std::filesystem::temp_directory_path() /
          ("ibpm-" + name + "-" + std::to_string(::getpid()) + "-" + std::to_string(serial++));
  std::filesystem::remove_all(path_);
  std::filesystem::create_directories(path_);
}

TempDir::~TempDir() {
  std::error_code ignored;
  std::filesystem::remove_all(path_, ignored);
}

}  // namespace ibpm::test
