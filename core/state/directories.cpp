// SPDX-License-Identifier: MIT

#include "state/directories.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "state/state_error.hpp"

namespace ibpm::state {

namespace {
void make_one(const std::string& dir) {
  if (::mkdir(dir.c_str(), 0755) == 0) return;
  const int err = errno;
  struct stat st {};
  // EEXIST also covers a concurrent run that made it first.
  if (err == EEXIST && ::stat(dir.c_str(), &st) == 0 && S_ISDIR(st.st_mode)) return;
  throw StateError(dir + ": cannot create directory: " +
                   (err == EEXIST ? std::string("not a directory") : std::strerror(err)));
}
}  // namespace

void make_directories(const std::string& dir) {
  struct stat st {};
  if (::stat(dir.c_str(), &st) == 0 && S_ISDIR(st.st_mode)) return;
  for (std::size_t slash = dir.find('/', 1); slash != std::string::npos;
       slash = dir.find('/', slash + 1))
    if (dir[slash - 1] != '/') make_one(dir.substr(0, slash));
  if (!dir.empty() && dir.back() != '/') make_one(dir);
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
