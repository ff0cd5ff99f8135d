// SPDX-License-Identifier: MIT
// StagedFolder with Staging::reuse_spare: the content two runs back is written over (same files,
// same inodes), what a run did not write is gone from what it commits, and a link planted in the
// spare is removed, never written through.
#include <sys/stat.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>

#include "base/atomic_dir.hpp"
#include "support/temp_dir.hpp"

namespace fs = std::filesystem;
using ibpm::base::StagedFolder;
using ibpm::base::Staging;

namespace {

std::string any_target_is_ours(const std::string&) { return {}; }

// One run: writes each of `files` (relative path -> content) into a staging folder and commits.
void staged_run(const fs::path& target, const std::map<std::string, std::string>& files) {
  StagedFolder staged(target.string(), any_target_is_ours, Staging::reuse_spare);
  for (const auto& [name, content] : files) {
    const fs::path path = fs::path(staged.path()) / name;
    fs::create_directories(path.parent_path());
    std::ofstream(path) << content;
  }
  staged.commit();
}

std::set<std::string> files_under(const fs::path& folder) {
  std::set<std::string> names;
  for (const auto& entry : fs::recursive_directory_iterator(folder))
    if (entry.is_regular_file()) names.insert(fs::relative(entry.path(), folder).string());
  return names;
}

std::string read_back(const fs::path& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

ino_t inode_of(const fs::path& path) {
  struct stat st {};
  REQUIRE(::stat(path.c_str(), &st) == 0);
  return st.st_ino;
}

}  // namespace

TEST_CASE("a reused staging folder writes over the content two runs back and drops the rest") {
  const ibpm::test::TempDir tmp("staged-reuse");
  const fs::path target = fs::path(tmp.path()) / "site";
  const fs::path spare = fs::path(tmp.path()) / ".site.spare";
  staged_run(target, {{"index.html", "one"}, {"node/a.html", "a1"}, {"node/b.html", "b1"}});
  CHECK_FALSE(fs::exists(spare));  // nothing was there before the first run
  const ino_t first_index = inode_of(target / "index.html");
  staged_run(target, {{"index.html", "two"}, {"node/a.html", "a2"}});
  // The first run's content is now the spare; the target holds the second run's only.
  CHECK(files_under(target) == std::set<std::string>{"index.html", "node/a.html"});
  CHECK(read_back(target / "index.html") == "two");
  REQUIRE(fs::exists(spare / "index.html"));
  CHECK(inode_of(spare / "index.html") == first_index);
  // The third run writes over the first's files: the same inode, new content, and b.html (the
  // first run's, not written since) is not in what it commits; nor is the probe of its start.
  staged_run(target, {{"index.html", "three"}, {"link/c.html", "c3"}});
  CHECK(inode_of(target / "index.html") == first_index);
  CHECK(read_back(target / "index.html") == "three");
  CHECK(files_under(target) == std::set<std::string>{"index.html", "link/c.html"});
  CHECK_FALSE(fs::exists(target / "node"));  // a folder left empty goes too
  CHECK(files_under(spare) == std::set<std::string>{"index.html", "node/a.html"});
}

TEST_CASE("a link planted in the spare is removed before the run writes") {
  const ibpm::test::TempDir tmp("staged-link");
  const fs::path target = fs::path(tmp.path()) / "site";
  const fs::path spare = fs::path(tmp.path()) / ".site.spare";
  const fs::path outside = fs::path(tmp.path()) / "outside.txt";
  std::ofstream(outside) << "untouched";
  staged_run(target, {{"index.html", "one"}});
  staged_run(target, {{"index.html", "two"}});
  REQUIRE(fs::exists(spare / "index.html"));
  fs::remove(spare / "index.html");
  fs::create_symlink(outside, spare / "index.html");
  staged_run(target, {{"index.html", "three"}});
  CHECK(read_back(outside) == "untouched");
  CHECK(read_back(target / "index.html") == "three");
  CHECK_FALSE(fs::is_symlink(target / "index.html"));
}

TEST_CASE("without reuse the old content goes and no spare is kept") {
  const ibpm::test::TempDir tmp("staged-empty");
  const fs::path target = fs::path(tmp.path()) / "site";
  for (const char* content : {"one", "two"}) {
    StagedFolder staged(target.string(), any_target_is_ours);
    std::ofstream(fs::path(staged.path()) / "index.html") << content;
    staged.commit();
  }
  CHECK(read_back(target / "index.html") == "two");
  CHECK_FALSE(fs::exists(fs::path(tmp.path()) / ".site.spare"));
}
