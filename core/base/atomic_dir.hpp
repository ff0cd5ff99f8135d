// SPDX-License-Identifier: MIT
// Folders other programs read (a web site, a monitoring configuration) are replaced whole or not
// at all: the files go into a new sibling folder, which then takes the target's place in one
// rename (an exchange when the target exists), so a reader sees the old content or the new.
// A staging folder is locked (flock) while its run lives; a run killed before it could clean up
// leaves it unlocked, and the next run for the same target removes it.
#pragma once

#include <filesystem>
#include <functional>
#include <string>

namespace ibpm::base {

// How a staging folder starts: empty, or as the content the target had before the last run's
// (kept beside it as ".NAME.spare"), whose files the run writes over. A site of tens of thousands
// of pages rewritten every few minutes then reuses its files instead of deleting them and creating
// as many anew, which costs some file systems (ext4 looking for inodes not recently freed) far
// more than the writing; commit() removes what the run did not write.
enum class Staging { empty, reuse_spare };

class StagedFolder {
 public:
  // `is_ours` decides whether an existing target may be replaced (it must never take an
  // operator's own files with it): it gets the target's path and returns an empty string when
  // the folder may go, else the reason it may not. Throws std::runtime_error with a one-line
  // reason when the target may not be replaced or the staging folder cannot be made. Removes the
  // target's staging folders that no live run holds and that are over a minute old.
  StagedFolder(const std::string& target,
               const std::function<std::string(const std::string&)>& is_ours,
               Staging staging = Staging::empty);
  ~StagedFolder();  // removes the staging folder unless it was committed
  StagedFolder(const StagedFolder&) = delete;
  StagedFolder& operator=(const StagedFolder&) = delete;

  const std::string& path() const { return staging_; }  // write the new content here
  const std::string& target() const { return target_; }

  // Puts the staged folder in the target's place (readable by all) and removes the old content
  // (with Staging::reuse_spare: first the files the run did not write, and the old content is
  // kept as the next run's spare).
  void commit();

 private:
  std::string target_;
  std::string staging_;
  std::string spare_;  // with Staging::reuse_spare: where the old content is kept
  std::filesystem::file_time_type started_{};  // files older than this were not written
  int lock_fd_ = -1;
  bool committed_ = false;
};

// The leftovers of killed runs next to `target`: ".NAME.new-XXXXXX" folders no run has locked,
// last changed more than `min_age_seconds` ago (so a run that has just made its folder and not
// yet locked it is left alone). Returns how many were removed.
std::size_t remove_stale_staging(const std::string& target, int min_age_seconds = 60);

}  // namespace ibpm::base
