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
