// SPDX-License-Identifier: MIT

#include "sim/log_follower.hpp"

#include <fcntl.h>
#include <poll.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <fstream>
#include <iterator>
#include <system_error>
#include <vector>

namespace ibpm::sim {

LogFollower::LogFollower(const std::filesystem::path& path, std::uint64_t offset)
    : offset_(offset) {
  fd_ = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd_ < 0)
    throw std::system_error(errno, std::generic_category(), "cannot open " + path.string());
  // Without inotify (e.g. no watches left) wait_for falls back to short polls.
  inotify_fd_ = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
  if (inotify_fd_ >= 0 && inotify_add_watch(inotify_fd_, path.c_str(), IN_MODIFY) < 0) {
    close(inotify_fd_);
    inotify_fd_ = -1;
  }
}

LogFollower::~LogFollower() {
  if (inotify_fd_ >= 0) close(inotify_fd_);
  if (fd_ >= 0) close(fd_);
}

void LogFollower::read_more() {
  char buffer[65536];
  for (;;) {
    ssize_t got = pread(fd_, buffer, sizeof buffer, static_cast<off_t>(offset_ + text_.size()));
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) return;
    text_.append(buffer, static_cast<std::size_t>(got));
  }
}

std::optional<std::string> LogFollower::wait_for(std::string_view needle,
                                                 std::chrono::steady_clock::time_point deadline,
                                                 const std::function<bool()>& keep_waiting) {
  std::size_t searched = 0;
  for (;;) {
    // Drain pending events before reading so that a write after the read wakes us again.
    if (inotify_fd_ >= 0) {
      char events[4096];
      while (read(inotify_fd_, events, sizeof events) > 0) {
      }
    }
    read_more();
    std::size_t from = searched >= needle.size() ? searched - needle.size() + 1 : 0;
    std::size_t at = text_.find(needle, from);
    if (at != std::string::npos) return text_.substr(0, at + needle.size());
    searched = text_.size();

    auto now = std::chrono::steady_clock::now();
    if (now >= deadline) return std::nullopt;
    if (keep_waiting && !keep_waiting()) {
      read_more();  // the writer may have finished the text on its way out
      at = text_.find(needle, from);
      if (at != std::string::npos) return text_.substr(0, at + needle.size());
      return std::nullopt;
    }
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - now).count();
    if (inotify_fd_ >= 0) {
      pollfd p{inotify_fd_, POLLIN, 0};
      poll(&p, 1, static_cast<int>(std::clamp<long long>(left, 1, 50)));
    } else {
      pollfd none{-1, 0, 0};
      poll(&none, 0, static_cast<int>(std::clamp<long long>(left, 1, 2)));
    }
  }
}

std::uint64_t log_size(const std::filesystem::path& path) {
  struct stat st;
  if (stat(path.c_str(), &st) != 0) return 0;
  return static_cast<std::uint64_t>(st.st_size);
}

std::string file_tail(const std::filesystem::path& path, int max_lines) {
  std::ifstream in(path, std::ios::binary);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::size_t pos = text.size();
  if (pos > 0 && text[pos - 1] == '\n') --pos;
  for (int lines = 0; pos > 0; --pos) {
    if (text[pos - 1] == '\n' && ++lines == max_lines) break;
  }
  return text.substr(pos);
}

}  // namespace ibpm::sim
