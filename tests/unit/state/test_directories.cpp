// SPDX-License-Identifier: MIT
// The state folder: a warning when others than the running user can plant files in it.
#include <sys/stat.h>
#include <unistd.h>

#include <catch2/catch.hpp>

#include "state/directories.hpp"
#include "support/temp_dir.hpp"

using ibpm::state::shared_folder_warning;
using ibpm::test::TempDir;

TEST_CASE("a state folder others can write to is named in a warning") {
  TempDir dir("shared-folder");
  const std::string path = dir.path().string();
  REQUIRE(::chmod(path.c_str(), 02775) == 0);
  CHECK(shared_folder_warning(path) ==
        path +
            " is writable by its group (mode 2775) without the sticky bit: others can plant "
            "links there (chmod g-w,o-w or +t)");
  REQUIRE(::chmod(path.c_str(), 0777) == 0);
  CHECK_THAT(shared_folder_warning(path), Catch::StartsWith(path + " is writable by all"));
  // The sticky bit: nobody removes or renames another's files.
  REQUIRE(::chmod(path.c_str(), 03775) == 0);
  CHECK(shared_folder_warning(path).empty());
  REQUIRE(::chmod(path.c_str(), 0755) == 0);
  CHECK(shared_folder_warning(path).empty());
  CHECK(shared_folder_warning(path + "/missing").empty());
  if (::geteuid() == 0) {
    // A run as root in a folder another user owns.
    REQUIRE(::chown(path.c_str(), 65534, static_cast<gid_t>(-1)) == 0);
    CHECK(shared_folder_warning(path) ==
          path +
              " belongs to user 65534 and this run is root: that user can plant links there "
              "(run as that user, or chown it)");
  }
}

namespace directories_test {

unsigned folder_mode(const std::string& path) {
  struct stat st {};
  REQUIRE(::lstat(path.c_str(), &st) == 0);
  return st.st_mode & 07777;
}

}  // namespace directories_test

TEST_CASE("a folder made under a setgid group-writable one follows its group policy") {
  using directories_test::folder_mode;
  using ibpm::state::FolderSharing;
  using ibpm::state::make_directories;
  using ibpm::state::shared_with_group;
  TempDir dir("group-policy");
  const std::string shared = dir / "shared";
  const mode_t umask_before = ::umask(0022);
  REQUIRE(::mkdir(shared.c_str(), 0700) == 0);
  REQUIRE(::chmod(shared.c_str(), 03775) == 0);
  CHECK(shared_with_group(shared));
  // Made for the group's rrdcached: group-writable whatever the umask, the parent's sticky bit
  // kept; its own subfolders the same.
  make_directories(shared + "/0x01/deeper", FolderSharing::parent_group);
  CHECK(folder_mode(shared + "/0x01") == 03775);
  CHECK(folder_mode(shared + "/0x01/deeper") == 03775);
  CHECK(shared_with_group(shared + "/0x01"));
  // Everything else stays the owner's (the setgid bit is the kernel's, inherited).
  make_directories(shared + "/samples");
  CHECK(folder_mode(shared + "/samples") == 02755);
  CHECK_FALSE(shared_with_group(shared + "/samples"));
  // Without the sticky bit on the parent, none on the child.
  REQUIRE(::chmod(shared.c_str(), 02775) == 0);
  make_directories(shared + "/0x02", FolderSharing::parent_group);
  CHECK(folder_mode(shared + "/0x02") == 02775);
  // A parent that is not setgid and group-writable: as every state folder.
  const std::string plain = dir / "plain";
  make_directories(plain + "/0x03", FolderSharing::parent_group);
  CHECK(folder_mode(plain + "/0x03") == 0755);
  CHECK_FALSE(shared_with_group(plain + "/0x03"));
  // A folder already there is left as it is, and a link at the name is never chmod-ed through.
  const std::string mine = dir / "mine";
  REQUIRE(::mkdir(mine.c_str(), 0700) == 0);
  REQUIRE(::chmod(shared.c_str(), 03775) == 0);
  REQUIRE(::symlink(mine.c_str(), (shared + "/0x04").c_str()) == 0);
  make_directories(shared + "/0x04", FolderSharing::parent_group);
  CHECK(folder_mode(mine) == 0700);
  ::umask(umask_before);
}
