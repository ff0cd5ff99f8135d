// SPDX-License-Identifier: MIT

#include "base/atomic_dir.hpp"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <stdexcept>

#include "base/temporary.hpp"

namespace ibpm::base {

namespace fs = std::filesystem;

namespace {

std::string staging_prefix(const fs::path& target) {
  return "." + target.filename().string() + ".new-";
}

}  // namespace

std::size_t remove_stale_staging(const std::string& target_text, int min_age_seconds) {
  const fs::path target = fs::absolute(fs::path(target_text)).lexically_normal();
  return remove_unheld(target.parent_path().string(), staging_prefix(target), min_age_seconds);
}

StagedFolder::StagedFolder(const std::string& target_text,
                           const std::function<std::string(const std::string&)>& is_ours) {
  const fs::path dir = fs::absolute(fs::path(target_text)).lexically_normal();
  const fs::path target = dir.has_filename() ? dir : dir.parent_path();
  target_ = target.string();
  std::error_code ec;
  if (fs::exists(target, ec)) {
    if (!fs::is_directory(target, ec)) throw std::runtime_error(target_ + ": not a folder");
    if (const std::string reason = is_ours(target_); !reason.empty())
      throw std::runtime_error(reason);
  }
  std::string pattern = (target.parent_path() / (staging_prefix(target) + "XXXXXX")).string();
  if (!::mkdtemp(pattern.data()))
    throw std::runtime_error(target.parent_path().string() +
                             ": cannot create a folder: " + std::strerror(errno));
  staging_ = pattern;
  // Held until this object goes: the lock dies with the process, however it dies.
  lock_fd_ = ::open(staging_.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (lock_fd_ >= 0) ::flock(lock_fd_, LOCK_EX | LOCK_NB);
  remove_stale_staging(target_);
}

StagedFolder::~StagedFolder() {
  std::error_code ignored;
  fs::remove_all(staging_, ignored);  // after commit(): the old content, swapped in here
  if (lock_fd_ >= 0) ::close(lock_fd_);
}

void StagedFolder::commit() {
  if (committed_) return;
  fs::permissions(staging_, fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec |
                                fs::perms::others_read | fs::perms::others_exec);
  std::error_code ec;
  if (fs::exists(target_, ec)) {
    // Swap the folders in one step; the old one is then at the staging path and goes with it.
    if (::renameat2(AT_FDCWD, staging_.c_str(), AT_FDCWD, target_.c_str(), RENAME_EXCHANGE) != 0)
      throw std::runtime_error(target_ + ": cannot replace: " + std::strerror(errno));
  } else if (::rename(staging_.c_str(), target_.c_str()) != 0) {
    throw std::runtime_error(target_ + ": cannot create: " + std::strerror(errno));
  }
  committed_ = true;
  std::error_code ignored;
  fs::remove_all(staging_, ignored);
}

}  // namespace ibpm::base
