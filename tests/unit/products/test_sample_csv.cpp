// SPDX-License-Identifier: MIT
// append_samples_csv: the header once, quoting of untrusted names, foreign files and
// concurrent appends from two processes.
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "csv_reader.hpp"
#include "products/sample_csv.hpp"
#include "support/port_results.hpp"
#include "support/temp_dir.hpp"

using namespace ibpm;
using namespace ibpm::products;
using namespace ibpm::products::test;
using namespace ibpm::test;

namespace {

std::string read_all(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

std::size_t column(const CsvRecord& header, const std::string& name) {
  for (std::size_t i = 0; i < header.size(); ++i)
    if (header[i] == name) return i;
  FAIL("no column " << name);
  return 0;
}

}  // namespace

TEST_CASE("the header has every column once") {
  const auto records = parse_csv(sample_csv_header() + "\n");
  REQUIRE(records.size() == 1);
  const CsvRecord& header = records[0];
  CHECK(header.size() == 11 + 17 + 17 + 6);
  CHECK(header.front() == "sweep_start");
  CHECK(header.back() == "shard");
  CHECK(header[11] == "symbol_errors");
  CHECK(header[28] == "symbol_errors_per_s");
  CHECK(column(header, "saturated_mask") == 45);
}

TEST_CASE("two appends write the header once and one row per port") {
  TempDir dir("csv-append");
  const std::string path = (dir.path() / "samples.csv").string();
  append_samples_csv(path, 1714564800.0, {quiet_port(1), quiet_port(2)}, "1/2");
  append_samples_csv(path, 1714564860.5, {baseline_port(3)}, "1/2");

  const auto records = parse_csv(read_all(path));
  REQUIRE(records.size() == 4);
  const CsvRecord& header = records[0];
  CHECK(records[0] == parse_csv(sample_csv_header() + "\n")[0]);
  for (std::size_t i = 1; i < records.size(); ++i) CHECK(records[i].size() == header.size());

  const CsvRecord& first = records[1];
  CHECK(first[column(header, "sweep_start")] == "1714564800.000");
  CHECK(first[column(header, "sample_time")] == "1714564800.250");
  CHECK(first[column(header, "node_guid")] == "0x0002c90300001234");
  CHECK(first[column(header, "port")] == "1");
  CHECK(first[column(header, "node_type")] == "switch");
  CHECK(first[column(header, "lid")] == "17");
  CHECK(first[column(header, "port_name")] == "leaf01[1]");
  CHECK(first[column(header, "remote_name")] == "spine01[1]");
  CHECK(first[column(header, "answered")] == "1");
  CHECK(first[column(header, "error")] == "");
  CHECK(first[column(header, "xmit_data")] == "1000");
  CHECK(first[column(header, "xmit_data_per_s")] == "0");
  CHECK(first[column(header, "interval_s")] == "10");
  CHECK(first[column(header, "shard")] == "1/2");

  const CsvRecord& baseline = records[3];
  CHECK(baseline[column(header, "sweep_start")] == "1714564860.500");
  CHECK(baseline[column(header, "port")] == "3");
  CHECK(baseline[column(header, "symbol_errors")] == "1000");
  CHECK(baseline[column(header, "symbol_errors_per_s")] == "");
  CHECK(baseline[column(header, "xmit_util_pct")] == "");
  CHECK(baseline[column(header, "interval_s")] == "");
}

TEST_CASE("rates are written as perfdata reports them with the saturated mask") {
  TempDir dir("csv-rates");
  const std::string path = (dir.path() / "samples.csv").string();
  poll::PortResult r = with_rate(quiet_port(1), counters::Counter::rcv_data, 250.5);
  r = with_rate(r, counters::Counter::symbol_errors, 7, true);
  r.rates.xmit_util_pct = 12.5;
  own_record(r).raw[at(counters::Counter::vl15_dropped)].reset();
  r.rates.rate[at(counters::Counter::vl15_dropped)].reset();
  append_samples_csv(path, 1714564800.0, {r}, "");

  const auto records = parse_csv(read_all(path));
  REQUIRE(records.size() == 2);
  const CsvRecord& header = records[0];
  const CsvRecord& row = records[1];
  CHECK(row[column(header, "rcv_data_per_s")] == "1002");  // octets/s
  CHECK(row[column(header, "symbol_errors_per_s")] == "7");
  CHECK(row[column(header, "saturated_mask")] == "0x1");
  CHECK(row[column(header, "xmit_util_pct")] == "12.5");
  CHECK(row[column(header, "vl15_dropped")] == "");
  CHECK(row[column(header, "vl15_dropped_per_s")] == "");
  CHECK(row[column(header, "shard")] == "");
}

TEST_CASE("an unanswered port has its error and no values") {
  TempDir dir("csv-unanswered");
  const std::string path = (dir.path() / "samples.csv").string();
  poll::PortResult r = unanswered_port(4);
  own_target(r).type = NodeType::ca;
  append_samples_csv(path, 1714564800.0, {r}, "");
  const auto records = parse_csv(read_all(path));
  REQUIRE(records.size() == 2);
  const CsvRecord& header = records[0];
  const CsvRecord& row = records[1];
  CHECK(row[column(header, "answered")] == "0");
  CHECK(row[column(header, "node_type")] == "ca");
  CHECK(row[column(header, "error")] == "no answer after 4 tries");
  CHECK(row[column(header, "sample_time")] == "");
  CHECK(row[column(header, "symbol_errors")] == "");
  CHECK(row[column(header, "saturated_mask")] == "");
}

TEST_CASE("names with commas and quotes round-trip, line breaks become blanks") {
  TempDir dir("csv-quoting");
  const std::string path = (dir.path() / "samples.csv").string();
  const std::string evil = "leaf \"01\", rack 3\nfake,row\r";
  poll::PortResult r = quiet_port(2, evil, "spine,02[1]");
  append_samples_csv(path, 1714564800.0, {r, quiet_port(3)}, "shard \"a\"");

  const auto records = parse_csv(read_all(path));
  REQUIRE(records.size() == 3);
  const CsvRecord& header = records[0];
  CHECK(records[1].size() == header.size());
  // Line breaks from the fabric are blanks (issue 16); commas and quotes survive, quoted.
  CHECK(records[1][column(header, "port_name")] == "leaf \"01\", rack 3 fake,row [2]");
  CHECK(records[1][column(header, "remote_name")] == "spine,02[1]");
  CHECK(records[1][column(header, "shard")] == "shard \"a\"");
  CHECK(records[2][column(header, "port_name")] == "leaf01[3]");
}

TEST_CASE("a file with another first line is refused and left alone") {
  TempDir dir("csv-foreign");
  const std::string path = (dir.path() / "samples.csv").string();
  const std::string foreign = "time,host,value\n1,a,2\n";
  std::ofstream(path) << foreign;

  CHECK_THROWS_WITH(append_samples_csv(path, 1714564800.0, {quiet_port(1)}, ""),
                    Catch::StartsWith(path + ": "));
  CHECK(read_all(path) == foreign);

  // An older column set: our header with a column less.
  std::string older = sample_csv_header();
  older = older.substr(0, older.rfind(',')) + "\n";
  std::ofstream(path, std::ios::trunc) << older;
  CHECK_THROWS(append_samples_csv(path, 1714564800.0, {quiet_port(1)}, ""));
  CHECK(read_all(path) == older);
}

TEST_CASE("an empty file gets the header") {
  TempDir dir("csv-empty");
  const std::string path = (dir.path() / "samples.csv").string();
  std::ofstream(path).close();
  append_samples_csv(path, 1714564800.0, {quiet_port(1)}, "");
  const auto records = parse_csv(read_all(path));
  REQUIRE(records.size() == 2);
  CHECK(records[0][0] == "sweep_start");
}

TEST_CASE("a file that cannot be opened gives one line naming it") {
  TempDir dir("csv-missing");
  const std::string path = (dir.path() / "no-such-dir" / "samples.csv").string();
  CHECK_THROWS_WITH(append_samples_csv(path, 1714564800.0, {quiet_port(1)}, ""),
                    Catch::StartsWith(path + ": cannot open"));
}

TEST_CASE("two processes appending at once write whole rows and one header") {
  TempDir dir("csv-concurrent");
  const std::string path = (dir.path() / "samples.csv").string();
  constexpr int kRounds = 200;
  constexpr int kPorts = 20;
  // Long names make rows larger than a pipe buffer's atomic write, so the lock has to do it.
  const std::string long_name(300, 'n');

  auto appender = [&](const std::string& shard) {
    std::vector<poll::PortResult> results;
    for (int p = 1; p <= kPorts; ++p)
      results.push_back(quiet_port(static_cast<PortNumber>(p), long_name + ",\"" + shard + "\""));
    for (int round = 0; round < kRounds; ++round)
      append_samples_csv(path, 1714564800.0 + round, results, shard);
  };

  const pid_t child = ::fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    int status = 0;
    try {
      appender("2/2");
    } catch (...) {
      status = 1;
    }
    ::_exit(status);
  }
  appender("1/2");
  int status = 0;
  REQUIRE(::waitpid(child, &status, 0) == child);
  REQUIRE(WIFEXITED(status));
  REQUIRE(WEXITSTATUS(status) == 0);

  const auto records = parse_csv(read_all(path));
  REQUIRE(records.size() == 1 + 2 * kRounds * kPorts);
  const CsvRecord& header = records[0];
  CHECK(header[0] == "sweep_start");
  const std::size_t name = column(header, "port_name");
  const std::size_t shard = column(header, "shard");
  std::size_t per_shard[2] = {0, 0};
  for (std::size_t i = 1; i < records.size(); ++i) {
    REQUIRE(records[i].size() == header.size());
    REQUIRE((records[i][shard] == "1/2" || records[i][shard] == "2/2"));
    // The row is one writer's: its name carries the same shard.
    REQUIRE(records[i][name].find("\"" + records[i][shard] + "\"") != std::string::npos);
    ++per_shard[records[i][shard] == "1/2" ? 0 : 1];
  }
  CHECK(per_shard[0] == kRounds * kPorts);
  CHECK(per_shard[1] == kRounds * kPorts);
}

TEST_CASE("names from the fabric cannot become spreadsheet formulas or break cells") {
  TempDir dir("csv-hostile");
  const std::string path = (dir.path() / "samples.csv").string();
  append_samples_csv(path, 1714564800.0, {quiet_port(1, "=cmd|' /C calc'!A0", "@x\x1b[31m")},
                     "1/1");
  const auto records = parse_csv(read_all(path));
  REQUIRE(records.size() == 2);
  const CsvRecord& header = records[0];
  CHECK(records[1][column(header, "port_name")] == "'=cmd|' /C calc'!A0[1]");
  CHECK(records[1][column(header, "remote_name")] == "'@x [31m");
}

TEST_CASE("a link planted at the CSV file is not followed, a FIFO is refused") {
  TempDir dir("csv-link");
  const auto victim = dir.path() / "victim";
  std::ofstream(victim) << "keep\n";
  const std::string path = (dir.path() / "samples.csv").string();
  std::filesystem::create_symlink(victim, path);
  CHECK_THROWS_WITH(append_samples_csv(path, 1714564800.0, {quiet_port(1)}, ""),
                    path + ": is a symbolic link (not followed)");
  CHECK(read_all(victim) == "keep\n");

  const std::string fifo = (dir.path() / "fifo.csv").string();
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  CHECK_THROWS_WITH(append_samples_csv(fifo, 1714564800.0, {quiet_port(1)}, ""),
                    fifo + ": not a regular file");
}
