// SPDX-License-Identifier: MIT

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "base/atomic_file.hpp"
#include "support/temp_dir.hpp"

namespace fs = std::filesystem;

namespace {
std::string read(const fs::path& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}
}  // namespace

TEST_CASE("a failed write leaves the old file and no temporary behind") {
  const ibpm::test::TempDir tmp("atomic");
  const fs::path dir = tmp.path();
  fs::path target = dir / "baseline";
  ibpm::base::replace_file_with(target.string(), [](std::ostream& out) { out << "first\n"; });
  CHECK(read(target) == "first\n");

  CHECK_THROWS_WITH(ibpm::base::replace_file_with(target.string(),
                                                  [](std::ostream& out) {
                                                    out << "half";
                                                    throw std::runtime_error("writer failed");
                                                  }),
                    "writer failed");
  CHECK_THROWS_WITH(
      ibpm::base::replace_file(target.string(), [](const std::string&) { return false; }),
      Catch::Contains("cannot write " + target.string()));
  CHECK(read(target) == "first\n");
  CHECK(std::distance(fs::directory_iterator(dir), fs::directory_iterator{}) == 1);

  ibpm::base::replace_file_with(target.string(), [](std::ostream& out) { out << "second\n"; });
  CHECK(read(target) == "second\n");
  CHECK_THROWS(
      ibpm::base::replace_file_with((dir / "no/such/dir/file").string(), [](std::ostream&) {}));
}
