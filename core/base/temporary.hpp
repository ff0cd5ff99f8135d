// SPDX-License-Identifier: MIT
// The temporaries of files replaced whole (atomic_file) and of files linked into place (new RRD
// files): made next to their target under ".NAME.tmp-XXXXXX", by mkstemp or mkdtemp, so that
// nobody else's file or link is ever opened under that name, even in a folder others can write
// to. A run holds an flock on its temporary while it lives; one killed before it could clean up
// leaves it unlocked, and the next writer of the same target removes it.
#pragma once

#include <string>

namespace ibpm::base {

// A folder of our own (0700) next to `target`, for writers that take a path and create the
// file themselves (libibnetdisc, Graphviz, librrd): they write file_path(), which nobody else
// can have planted. Removed with what is left in it when the object goes. Throws
// std::runtime_error("FOLDER: cannot create a temporary folder: reason").
class TemporaryFolder {
 public:
  explicit TemporaryFolder(const std::string& target);
  ~TemporaryFolder();
  TemporaryFolder(const TemporaryFolder&) = delete;
  TemporaryFolder& operator=(const TemporaryFolder&) = delete;

  const std::string& path() const { return path_; }
  // The file to write in it, named as the target is.
  const std::string& file_path() const { return file_; }

 private:
  std::string path_;
  std::string file_;
  int lock_fd_ = -1;
};

// ".NAME.tmp-XXXXXX" beside `target`, for mkstemp or mkdtemp.
std::string temporary_pattern(const std::string& target);

// Locks the temporary open as `fd` for as long as it stays open (see remove_stale_temporaries).
void hold_temporary(int fd);

// The entries of `folder` (empty: the working folder) named `prefix` and six more characters (the
// XXXXXX of mkstemp and mkdtemp) that no live run holds locked, that this user owns and that were
// last changed more than `min_age_seconds` ago: removed with what they hold. Returns how many;
// errors are ignored (the next writer tries again).
std::size_t remove_unheld(const std::string& folder, const std::string& prefix,
                          int min_age_seconds);

// The temporaries of `target` that no live run holds and that were last changed more than
// `min_age_seconds` ago (a run that has just made one and not yet locked it is left alone).
// Returns how many were removed; errors are ignored (the next writer tries again).
std::size_t remove_stale_temporaries(const std::string& target, int min_age_seconds = 600);

}  // namespace ibpm::base
