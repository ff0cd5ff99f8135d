// SPDX-License-Identifier: MIT

#include "base/atomic_dir.hpp"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <stdexcept>
#include <vector>

#include "base/temporary.hpp"

namespace ibpm::base {

namespace fs = std::filesystem;

namespace {

std::string staging_prefix(const fs::path& target) {
  return "." + target.filename().string() + ".new-";
}

fs::path spare_of(const fs::path& target) {
  return target.parent_path() / ("." + target.filename().string() + ".spare");
}

// Takes the spare folder as the staging folder (an empty one just made): locked first, so that
// no other run's clean-up takes it between the rename and the lock. Returns the lock, or -1 when
// there is no spare (or another run took it).
int take_spare(const fs::path& spare, const std::string& staging) {
  const int fd = ::open(spare.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) return -1;
  struct stat st {};
  if (::fstat(fd, &st) != 0 || st.st_uid != ::geteuid() || ::flock(fd, LOCK_EX | LOCK_NB) != 0 ||
      ::rename(spare.c_str(), staging.c_str()) != 0) {
    ::close(fd);
    return -1;
  }
  return fd;
}

// The time stamp the file system gives a file written now (its clock, not this process's).
fs::file_time_type file_system_now(const fs::path& folder) {
  const fs::path probe = folder / ".ibpm-staging-started";
  {
    std::FILE* f = std::fopen(probe.c_str(), "w");
    if (f) std::fclose(f);
  }
  std::error_code ec;
  const fs::file_time_type now = fs::last_write_time(probe, ec);
  if (ec) return fs::file_time_type{};
  fs::remove(probe, ec);
  return now;
}

// Symbolic links in a reused folder are none of ours: removed before anything is written
// through them.
void remove_links(const fs::path& folder) {
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(folder, ec); !ec && it != fs::end(it);
       it.increment(ec)) {
    std::error_code e;
    if (it->is_symlink(e)) fs::remove(it->path(), e);
  }
}

// Removes the files under `folder` last written before `started`, then the folders left empty.
void remove_unwritten(const fs::path& folder, fs::file_time_type started) {
  std::error_code ec;
  std::vector<fs::path> folders;
  for (auto it = fs::recursive_directory_iterator(folder, ec); !ec && it != fs::end(it);
       it.increment(ec)) {
    std::error_code e;
    if (it->is_directory(e) && !it->is_symlink(e))
      folders.push_back(it->path());
    else if (it->is_symlink(e) || fs::last_write_time(it->path(), e) < started)
      fs::remove(it->path(), e);
  }
  for (auto f = folders.rbegin(); f != folders.rend(); ++f) {
    std::error_code e;
    if (fs::is_empty(*f, e)) fs::remove(*f, e);
  }
}

}  // namespace

std::size_t remove_stale_staging(const std::string& target_text, int min_age_seconds) {
  const fs::path target = fs::absolute(fs::path(target_text)).lexically_normal();
  return remove_unheld(target.parent_path().string(), staging_prefix(target), min_age_seconds);
}

StagedFolder::StagedFolder(const std::string& target_text,
                           const std::function<std::string(const std::string&)>& is_ours,
                           Staging staging) {
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
  if (staging == Staging::reuse_spare) {
    spare_ = spare_of(target).string();
    lock_fd_ = take_spare(spare_, staging_);
    if (lock_fd_ >= 0) {
      remove_links(staging_);
      started_ = file_system_now(staging_);
      std::error_code ignored;
      if (started_ == fs::file_time_type{})  // no time to tell old files by: start empty
        for (const auto& entry : fs::directory_iterator(staging_, ignored))
          fs::remove_all(entry.path(), ignored);
    }
  }
  // Held until this object goes: the lock dies with the process, however it dies.
  if (lock_fd_ < 0) lock_fd_ = ::open(staging_.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
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
  if (started_ != fs::file_time_type{}) remove_unwritten(staging_, started_);
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
  // The old content: the next run's spare, or gone.
  if (spare_.empty() || fs::exists(spare_, ignored) ||
      ::rename(staging_.c_str(), spare_.c_str()) != 0)
    fs::remove_all(staging_, ignored);
}

}  // namespace ibpm::base
