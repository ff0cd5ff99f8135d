// SPDX-License-Identifier: MIT
// The Nagios 4 check result spool file: the format the reaper reads, output escaped so that a
// hostile text cannot forge a second result, the file written whole with its .ok marker after,
// and a missing folder a one-line reason with nothing left behind.
#include <catch2/catch.hpp>
#include <chrono>
#include <filesystem>
#include <regex>
#include <sstream>

#include "products/nagios_spool.hpp"
#include "support/temp_dir.hpp"
#include "support/text_files.hpp"

using namespace ibpm;
using namespace ibpm::products;
using namespace ibpm::test;
namespace fs = std::filesystem;

namespace {

std::size_t count_lines_starting(const std::string& text, const std::string& prefix) {
  std::size_t n = 0;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) n += line.rfind(prefix, 0) == 0;
  return n;
}

}  // namespace

TEST_CASE("output is one line with backslashes and line feeds escaped as Nagios reads them") {
  CHECK(spool_output("IB NODE OK - leaf01: 12 ports, all OK | 'p1_x'=0\n") ==
        "IB NODE OK - leaf01: 12 ports, all OK | 'p1_x'=0");
  CHECK(spool_output("first\n\\_[CRITICAL] a\\b\r\tc\n") == "first\\n\\\\_[CRITICAL] a\\\\b  c");
}

TEST_CASE("one result per switch, passive, in the reaper's format") {
  const std::vector<PassiveResult> results{
      {"leaf01", "ib-node", plugin::State::ok, "IB NODE OK - leaf01: 6 ports, all OK\n", {}},
      {"leaf02",
       "ib-node",
       plugin::State::critical,
       "IB NODE CRITICAL - leaf02\n\\_[CRITICAL] x\n",
       {}}};
  const std::string text = checkresult_text(results, 1714564800.25, 1714564801.5, 1714564802);
  CHECK(text.rfind("### Active Check Result File ###\nfile_time=1714564802\n\n", 0) == 0);
  CHECK(text.find("### Nagios Service Check Result ###\n"
                  "host_name=leaf02\n"
                  "service_description=ib-node\n"
                  "check_type=1\n"
                  "check_options=0\n"
                  "scheduled_check=0\n"
                  "reschedule_check=0\n"
                  "latency=0.000000\n"
                  "start_time=1714564800.250000\n"
                  "finish_time=1714564801.500000\n"
                  "early_timeout=0\n"
                  "exited_ok=1\n"
                  "return_code=2\n"
                  "output=IB NODE CRITICAL - leaf02\\n\\\\_[CRITICAL] x\n") != std::string::npos);
  CHECK(count_lines_starting(text, "host_name=") == 2);
}

TEST_CASE("hostile text cannot forge a second result") {
  const std::vector<PassiveResult> results{
      {"leaf\n01",
       "ib-node",
       plugin::State::ok,
       "IB NODE OK - evil\nhost_name=spine01\nreturn_code=0\n\n### Nagios Service Check Result "
       "###\nhost_name=spine01;x",
       {}}};
  const std::string text = checkresult_text(results, 1, 2, 3);
  CHECK(count_lines_starting(text, "host_name=") == 1);
  CHECK(count_lines_starting(text, "return_code=") == 1);
  CHECK(count_lines_starting(text, "### Nagios Service Check Result") == 1);
  CHECK(text.find("host_name=leaf 01\n") != std::string::npos);
}

TEST_CASE("the file is written whole, named cXXXXXX, and its .ok marker follows") {
  TempDir dir("nagios-spool");
  const std::vector<PassiveResult> results{
      {"leaf01", "ib-node", plugin::State::warning, "IB NODE WARNING - leaf01", {}}};
  const std::string path = write_checkresult_file(dir.path().string(), results, 10, 11);
  CHECK(std::regex_match(fs::path(path).filename().string(), std::regex("c[A-Za-z0-9]{6}")));
  CHECK(fs::exists(path + ".ok"));
  CHECK(read_text(path).find("return_code=1\noutput=IB NODE WARNING - leaf01\n") !=
        std::string::npos);
  CHECK((fs::status(path).permissions() & fs::perms::others_read) != fs::perms::none);
  std::size_t files = 0;
  for ([[maybe_unused]] const auto& entry : fs::directory_iterator(dir.path())) ++files;
  CHECK(files == 2);  // the file and its marker: no temporary left

  // Two sweeps: two files, neither overwritten.
  const std::string second = write_checkresult_file(dir.path().string(), results, 20, 21);
  CHECK(second != path);
  CHECK(fs::exists(path));
}

TEST_CASE("temporaries a killed run left in the spool go, a fresh one stays") {
  TempDir dir("nagios-spool");
  const fs::path stale = dir.path() / ".cAbC123.tmp-Xy9876";
  const fs::path fresh = dir.path() / ".cZzZ999.tmp-Qq1111";
  write_text(stale, "half a result");
  write_text(fresh, "a run writing now");
  fs::last_write_time(stale, fs::file_time_type::clock::now() - std::chrono::hours(1));
  const std::vector<PassiveResult> results{
      {"leaf01", "ib-node", plugin::State::ok, "IB NODE OK - leaf01", {}}};
  write_checkresult_file(dir.path().string(), results, 10, 11);
  CHECK_FALSE(fs::exists(stale));
  CHECK(fs::exists(fresh));  // younger than 10 minutes: maybe a live run's
}

TEST_CASE("a missing or unwritable folder is a one-line reason and leaves nothing") {
  TempDir dir("nagios-spool-missing");
  const std::string missing = (dir.path() / "checkresults").string();
  CHECK_THROWS_WITH(write_checkresult_file(missing, {}, 1, 2),
                    Catch::Contains(missing) && Catch::Contains("No such file or directory"));
  CHECK(fs::is_empty(dir.path()));
}
