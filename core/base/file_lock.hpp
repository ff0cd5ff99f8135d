// SPDX-License-Identifier: MIT
// An exclusive lock between the processes that replace one file, held on a lock file beside it
// (".NAME.lock", so that readers globbing NAME's pattern do not see it): a writer that reads the
// file, changes part of it and puts it back (a re-poll merging its ports into the sweep's
// OpenMetrics file) does not lose a whole rewrite made meanwhile. Readers need no lock: the file
// is always replaced whole.
#pragma once

#include <string>

namespace ibpm::base {

class FileLock {
 public:
  // Waits for the lock of `path` (its lock file made 0644 when missing; a link there is refused).
  // Throws std::runtime_error("LOCKFILE: reason").
  explicit FileLock(const std::string& path);
  FileLock(const FileLock&) = delete;
  FileLock& operator=(const FileLock&) = delete;
  ~FileLock();  // releases it

 private:
  int fd_ = -1;
};

}  // namespace ibpm::base
