// SPDX-License-Identifier: MIT
// The Nagios 4 and Icinga 2 configuration ibpm-nagios-config generates for a small generated fat
// tree (16 hosts, radix 8), every file of the output folder in one text, the temporary folder's
// path replaced by @TMP@ (the thresholds file's is in it).
#include <catch2/catch.hpp>
#include <filesystem>
#include <map>

#include "support/golden.hpp"
#include "support/process.hpp"
#include "support/temp_dir.hpp"
#include "support/text_files.hpp"

using namespace ibpm::test;
namespace fs = std::filesystem;

namespace {

std::string replace_all(std::string text, const std::string& from, const std::string& to) {
  for (auto at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size()))
    text.replace(at, from.size(), to);
  return text;
}

// "### FILE\n" then the file, for every file of `out` in path order.
std::string generated_files(const TempDir& dir, const std::string& format) {
  const std::string dump = dir / "fabric.ibnetdiscover";
  if (!fs::exists(dump)) {
    const ProcessRun generated =
        run_process({bin("ibpm-sim"), "generate", "--hosts", "16", "--radix", "8", "--dump", dump});
    INFO(generated.out << generated.err);
    REQUIRE(generated.exit_code == 0);
  }
  const std::string out = dir / ("out-" + format);
  // The site's thresholds file (the default, /etc/ibpm/thresholds.conf, is there only where the
  // package is installed).
  const std::string thresholds = dir / "thresholds.conf";
  write_text(thresholds, "symbol_errors 5/h 50/h\n");
  const ProcessRun run = run_process(
      {bin("ibpm-nagios-config"), "--format", format, "-o", out, "--cache", dump, "--state-dir",
       "/var/lib/ibpm", "--plugin-dir", "/usr/lib/nagios/plugins", "--thresholds", thresholds});
  INFO(run.out << run.err);
  REQUIRE(run.exit_code == 0);
  std::map<std::string, std::string> files;
  for (const auto& entry : fs::recursive_directory_iterator(out))
    if (entry.is_regular_file())
      files[fs::relative(entry.path(), out).string()] = read_text(entry.path());
  std::string text;
  for (const auto& [name, content] : files) text += "### " + name + "\n" + content;
  return replace_all(text, dir.path().string(), "@TMP@");
}

}  // namespace

TEST_CASE("golden: the Nagios configuration of a small fat tree") {
  const TempDir dir("golden-nagios");
  check_golden("nagios-small.cfg", generated_files(dir, "nagios"));
}

TEST_CASE("golden: the Icinga 2 configuration of a small fat tree") {
  const TempDir dir("golden-icinga2");
  check_golden("icinga2-small.conf", generated_files(dir, "icinga2"));
}
