// SPDX-License-Identifier: MIT
// Appending to a file that several processes append to (collectors of different shards writing
// one CSV, one event log): the file is opened with O_APPEND and held under an exclusive flock,
// so a writer can look at what is there (is it new? whose is it?) and add its lines before the
// next writer gets in. Every writer of such a file must go through this.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace ibpm::base {

class LockedAppend {
 public:
  // Opens `path` (created 0644 when missing) and waits for the lock.
  // Throws std::runtime_error("PATH: reason").
  explicit LockedAppend(std::string path);
  LockedAppend(const LockedAppend&) = delete;
  LockedAppend& operator=(const LockedAppend&) = delete;
  ~LockedAppend();  // releases the lock

  std::uint64_t size() const;
  // The first `length` bytes (fewer when the file is shorter).
  std::string head(std::size_t length) const;
  // Writes all of `data` at the end. On failure the file is cut back to its size before, so
  // that no partial line stays behind, and std::runtime_error("PATH: reason") is thrown.
  void append(std::string_view data);

  const std::string& path() const { return path_; }

 private:
  [[noreturn]] void fail(const std::string& what, int error) const;

  std::string path_;
  int fd_ = -1;
};

}  // namespace ibpm::base
