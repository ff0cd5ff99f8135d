// Folders other programs read (a web site, a monitoring configuration) are replaced whole or not
// at all: the files go into a new sibling folder, which then takes the target's place in one
// rename (an exchange when the target exists), so a reader sees the old content or the new.
#pragma once

#include <functional>
#include <string>

namespace ibpm {

class StagedFolder {
 public:
  // `is_ours` decides whether an existing target may be replaced (it must never take an
  // operator's own files with it): it gets the target's path and returns an empty string when
  // the folder may go, else the reason it may not. Throws std::runtime_error with a one-line
  // reason when the target may not be replaced or the staging folder cannot be made.
  StagedFolder(const std::string& target,
               const std::function<std::string(const std::string&)>& is_ours);
  ~StagedFolder();  // removes the staging folder unless it was committed
  StagedFolder(const StagedFolder&) = delete;
  StagedFolder& operator=(const StagedFolder&) = delete;

  const std::string& path() const { return staging_; }  // write the new content here
  const std::string& target() const { return target_; }

  // Puts the staged folder in the target's place (readable by all) and removes the old content.
  void commit();

 private:
  std::string target_;
  std::string staging_;
  bool committed_ = false;
};

}  // namespace ibpm
