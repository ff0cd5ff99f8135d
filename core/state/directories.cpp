// SPDX-License-Identifier: MIT

#include "state/directories.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "state/state_error.hpp"

namespace ibpm::state {

namespace {

// The group's files, by the folder's mode: setgid (new files get its group) and group-writable.
bool group_policy(mode_t mode) {
  return S_ISDIR(mode) && (mode & S_ISGID) != 0 && (mode & S_IWGRP) != 0;
}

std::string parent_of(const std::string& dir) {
  const std::size_t slash = dir.rfind('/');
  if (slash == std::string::npos) return ".";
  return slash == 0 ? "/" : dir.substr(0, slash);
}

[[noreturn]] void fail_directory(const std::string& dir, const std::string& what, int error) {
  throw StateError(dir + ": " + what + ": " + std::strerror(error));
}

// The folder this run has just made, 2775 (3775 under a sticky parent) when its parent is setgid
// and group-writable. Through a descriptor opened without following links, and only while the
// name still holds a folder of this user: in a parent others may write to, it may have been
// replaced meanwhile, and a check run as root must not chmod what a link points at.
void share_like_parent(const std::string& dir) {
  struct stat parent {};
  if (::stat(parent_of(dir).c_str(), &parent) != 0 || !group_policy(parent.st_mode)) return;
  const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) fail_directory(dir, "cannot open the new directory", errno);
  struct stat made {};
  int error = ::fstat(fd, &made) == 0 ? 0 : errno;
  if (error == 0 && made.st_uid == ::geteuid() &&
      ::fchmod(fd, 02775 | (parent.st_mode & S_ISVTX)) != 0)
    error = errno;
  ::close(fd);
  if (error != 0) fail_directory(dir, "cannot make the directory group-writable", error);
}

void make_one(const std::string& dir, FolderSharing sharing) {
  if (::mkdir(dir.c_str(), 0755) == 0) {
    if (sharing == FolderSharing::parent_group) share_like_parent(dir);
    return;
  }
  const int err = errno;
  struct stat st {};
  // EEXIST also covers a concurrent run that made it first.
  if (err == EEXIST && ::stat(dir.c_str(), &st) == 0 && S_ISDIR(st.st_mode)) return;
  throw StateError(dir + ": cannot create directory: " +
                   (err == EEXIST ? std::string("not a directory") : std::strerror(err)));
}
}  // namespace

void make_directories(const std::string& dir, FolderSharing sharing) {
  struct stat st {};
  if (::stat(dir.c_str(), &st) == 0 && S_ISDIR(st.st_mode)) return;
  for (std::size_t slash = dir.find('/', 1); slash != std::string::npos;
       slash = dir.find('/', slash + 1))
    if (dir[slash - 1] != '/') make_one(dir.substr(0, slash), sharing);
  if (!dir.empty() && dir.back() != '/') make_one(dir, sharing);
}

bool shared_with_group(const std::string& dir) {
  struct stat st {};
  return ::stat(dir.c_str(), &st) == 0 && group_policy(st.st_mode);
}

std::string shared_folder_warning(const std::string& dir) {
  struct stat st {};
  if (::stat(dir.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) return {};
  char mode[8];
  std::snprintf(mode, sizeof mode, "%o", static_cast<unsigned>(st.st_mode & 07777));
  if ((st.st_mode & (S_IWGRP | S_IWOTH)) != 0 && (st.st_mode & S_ISVTX) == 0)
    return dir + " is writable by " + ((st.st_mode & S_IWOTH) ? "all" : "its group") + " (mode " +
           mode + ") without the sticky bit: others can plant links there (chmod g-w,o-w or +t)";
  if (::geteuid() == 0 && st.st_uid != 0)
    return dir + " belongs to user " + std::to_string(st.st_uid) +
           " and this run is root: that user can plant links there (run as that user, or chown it)";
  return {};
}

}  // namespace ibpm::state
