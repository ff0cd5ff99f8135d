// A fresh directory per test, removed afterwards, and a store that writes files directly whatever
// the environment says.
#pragma once

#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <string>

#include "state/port_store.hpp"

namespace ibpm::state::test {

struct TempDir {
  explicit TempDir(const std::string& name) {
    static std::atomic<int> serial{0};
    path =
        std::filesystem::temp_directory_path() /
        ("ibpm-state-" + name + "-" + std::to_string(::getpid()) + "-" + std::to_string(serial++));
    std::filesystem::remove_all(path);
    std::filesystem::create_directories(path);
  }
  ~TempDir() {
    std::error_code ignored;
    std::filesystem::remove_all(path, ignored);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  std::filesystem::path path;
};

inline StoreOptions direct_options(const TempDir& dir) {
  ::unsetenv("RRDCACHED_ADDRESS");
  return StoreOptions{(dir.path / "state").string(), "", RrdLayout{}};
}

}  // namespace ibpm::state::test
