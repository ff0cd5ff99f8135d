// SPDX-License-Identifier: MIT
// A fresh folder under the temporary folder for one test, removed with everything in it at the end.
#pragma once

#include <filesystem>
#include <string>

namespace ibpm::test {

class TempDir {
 public:
  // The folder is named ibpm-NAME-PID-SERIAL: unique per process and per TempDir.
  explicit TempDir(const std::string& name);
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  const std::filesystem::path& path() const { return path_; }
  // Path of NAME inside the folder, as text.
  std::string operator/(const std::string& name) const { return (path_ / name).string(); }

 private:
  std::filesystem::path path_;
};

}  // namespace ibpm::test
