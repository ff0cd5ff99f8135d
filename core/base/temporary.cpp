// SPDX-License-Identifier: MIT

#include "base/temporary.hpp"

#include <fcntl.h>
#include <stdlib.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <stdexcept>

namespace ibpm::base {

namespace fs = std::filesystem;

namespace {

constexpr std::size_t kRandomPart = 6;  // the XXXXXX of mkstemp and mkdtemp

std::string temporary_prefix(const fs::path& target) {
  return "." + target.filename().string() + ".tmp-";
}

}  // namespace

std::string temporary_pattern(const std::string& target) {
  const fs::path path(target);
  return (path.parent_path() / (temporary_prefix(path) + std::string(kRandomPart, 'X'))).string();
}

void hold_temporary(int fd) {
  // Best effort: without the lock, only the age keeps a live run's temporary.
  [[maybe_unused]] const int locked = ::flock(fd, LOCK_EX | LOCK_NB);
}

std::size_t remove_unheld(const std::string& folder_text, const std::string& prefix,
                          int min_age_seconds) {
  const fs::path folder = folder_text.empty() ? fs::path(".") : fs::path(folder_text);
  std::size_t removed = 0;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(folder, ec)) {
    const std::string name = entry.path().filename().string();
    if (!name.starts_with(prefix) || name.size() != prefix.size() + kRandomPart) continue;
    // O_NOFOLLOW: a link planted under such a name is not ours to look through.
    const int fd = ::open(entry.path().c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0) continue;
    struct stat st {};
    const bool stale = ::fstat(fd, &st) == 0 && st.st_uid == ::geteuid() &&
                       ::time(nullptr) - st.st_mtime > static_cast<time_t>(min_age_seconds) &&
                       ::flock(fd, LOCK_EX | LOCK_NB) == 0;
    if (stale) {
      std::error_code ignored;
      if (fs::remove_all(entry.path(), ignored) > 0) ++removed;
    }
    ::close(fd);
  }
  return removed;
}

std::size_t remove_stale_temporaries(const std::string& target_text, int min_age_seconds) {
  const fs::path target(target_text);
  return remove_unheld(target.parent_path().string(), temporary_prefix(target), min_age_seconds);
}

TemporaryFolder::TemporaryFolder(const std::string& target) {
  std::string pattern = temporary_pattern(target);
  if (!::mkdtemp(pattern.data()))
    throw std::runtime_error(fs::path(pattern).parent_path().string() +
                             ": cannot create a temporary folder: " + std::strerror(errno));
  path_ = pattern;
  file_ = (fs::path(path_) / fs::path(target).filename()).string();
  lock_fd_ = ::open(path_.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (lock_fd_ >= 0) hold_temporary(lock_fd_);
  remove_stale_temporaries(target);
}

TemporaryFolder::~TemporaryFolder() {
  std::error_code ignored;
  fs::remove_all(path_, ignored);
  if (lock_fd_ >= 0) ::close(lock_fd_);
}

}  // namespace ibpm::base
