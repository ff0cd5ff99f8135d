// SPDX-License-Identifier: MIT
// The diff comes from diff -u on the golden file and the actual text written beside it.
#include "support/golden.hpp"

#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>

#include "support/process.hpp"
#include "support/temp_dir.hpp"
#include "support/text_files.hpp"

namespace ibpm::test {

void check_golden(const std::string& name, const std::string& actual) {
  const std::filesystem::path golden = std::filesystem::path(IBPM_GOLDEN_DIR) / name;
  const char* update = std::getenv("IBPM_UPDATE_GOLDEN");
  if (update && std::string(update) == "1") {
    write_text(golden, actual);
    WARN("rewrote " << golden.string());
    return;
  }
  if (!std::filesystem::exists(golden)) {
    FAIL_CHECK(golden.string() << " is missing (IBPM_UPDATE_GOLDEN=1 writes it)");
    return;
  }
  const std::string expected = read_text(golden);
  if (expected == actual) {
    SUCCEED(name << " matches");
    return;
  }
  const TempDir dir("golden");
  const std::string actual_path = dir / "actual";
  write_text(actual_path, actual);
  const ProcessRun diff = run_process({"diff", "-u", "--label", "tests/golden/" + name, "--label",
                                       "actual", golden.string(), actual_path},
                                      {{}, Stderr::merged});
  FAIL_CHECK(name << " differs from tests/golden/" << name
                  << " (IBPM_UPDATE_GOLDEN=1 rewrites it):\n"
                  << diff.out);
}

}  // namespace ibpm::test
