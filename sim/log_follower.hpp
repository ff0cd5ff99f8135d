// SPDX-License-Identifier: MIT
// Follows a growing log file (ibsim's console output) from an offset and waits for a piece of
// text to appear. Woken by inotify when the file changes, so no fixed sleeps.
#pragma once

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace ibpm::sim {

class LogFollower {
 public:
  // Follows `path` from byte `offset` on; the file must exist.
  LogFollower(const std::filesystem::path& path, std::uint64_t offset);
  ~LogFollower();
  LogFollower(const LogFollower&) = delete;
  LogFollower& operator=(const LogFollower&) = delete;

  // Waits until `needle` shows up after the offset and returns everything from the offset to
  // the needle's end. nullopt at the deadline or as soon as `keep_waiting` says false (it is
  // asked at least every 50 ms, e.g. whether the writer still runs).
  std::optional<std::string> wait_for(std::string_view needle,
                                      std::chrono::steady_clock::time_point deadline,
                                      const std::function<bool()>& keep_waiting);

  // What was read so far from the offset on.
  const std::string& text() const { return text_; }

 private:
  void read_more();

  int fd_ = -1;
  int inotify_fd_ = -1;
  std::uint64_t offset_ = 0;
  std::string text_;
};

// Current size of a file (0 when it does not exist).
std::uint64_t log_size(const std::filesystem::path& path);

// The last `max_lines` lines of a file, for error messages.
std::string file_tail(const std::filesystem::path& path, int max_lines = 20);

}  // namespace ibpm::sim
