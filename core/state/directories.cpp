// SPDX-License-Identifier: MIT

#include "state/directories.hpp"

#include <sys/stat.h>

#include <cerrno>
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

}  // namespace ibpm::state
