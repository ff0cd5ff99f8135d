// SPDX-License-Identifier: MIT
// State directories are made on demand, parents first, readable by all (0755 before the umask)
// so that graphing tools running as other users can read the files. The folders of the RRD files
// follow their parent's group policy instead: under a folder that is setgid and group-writable
// (the package's /var/lib/ibpm, 3775 nagios:ibpm), the group's rrdcached must make and rewrite
// files in them, so they are made group-writable too.
#pragma once

#include <string>

namespace ibpm::state {

enum class FolderSharing {
  // 0755 before the umask: only the run's user writes in it.
  owner_only,
  // As owner_only, except under a parent that is setgid and group-writable: 2775 whatever the
  // umask, with the parent's sticky bit (3775 under 3775: a member of the group may add files but
  // not remove or replace another's).
  parent_group,
};

// mkdir -p; throws StateError("DIR: reason") when a component cannot be made or is not a directory.
// Folders that exist already are left as they are.
void make_directories(const std::string& dir, FolderSharing sharing = FolderSharing::owner_only);

// Whether files made in `dir` are for its group to rewrite too: `dir` is setgid and
// group-writable (the folders make_directories makes with parent_group under such a parent).
bool shared_with_group(const std::string& dir);

// Why others than the running user can plant files or links in `dir` (the run's own files are
// opened without following links, but a warning tells the operator to close it): "DIR is
// writable by its group (mode 2775) without the sticky bit ..." when group or others may write
// and the sticky bit is not set, or "DIR belongs to user N ..." when a run as root works in a
// folder another user owns. Empty when neither (or when `dir` cannot be read).
std::string shared_folder_warning(const std::string& dir);

}  // namespace ibpm::state
