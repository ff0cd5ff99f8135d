// SPDX-License-Identifier: MIT
// Flows files for `ibpm-sim traffic`: rates with units, comments, and errors that name the file
// and the line.
#include <catch2/catch.hpp>
#include <sstream>
#include <string>

#include "sim/fat_tree.hpp"
#include "sim/flows_file.hpp"

using namespace ibpm;
using namespace ibpm::sim;

namespace {

// 16 hosts on four leaves (cn0001..cn0004 on leaf01, ...).
const FatTree& tree() {
  static const FatTree t = [] {
    FatTreeOptions options;
    options.hosts = 16;
    options.radix = 8;
    return make_fat_tree(options);
  }();
  return t;
}

std::vector<Flow> parse(const std::string& text) {
  std::istringstream in(text);
  return parse_flows(in, "jobs.flows", tree().topology);
}

std::string error_of(const std::string& text) {
  try {
    parse(text);
  } catch (const FlowsFileError& e) {
    return e.what();
  }
  return "(no error)";
}

}  // namespace

TEST_CASE("Rates: octets per second with decimal and binary prefixes") {
  CHECK(parse_rate("125000") == Approx(125000.0));
  CHECK(parse_rate("800M") == Approx(800e6));
  CHECK(parse_rate("500MB/s") == Approx(500e6));
  CHECK(parse_rate("1.5GB/s") == Approx(1.5e9));
  CHECK(parse_rate("1.5 GB/s") == Approx(1.5e9));
  CHECK(parse_rate("20kB/s") == Approx(20e3));
  CHECK(parse_rate("20K") == Approx(20e3));
  CHECK(parse_rate("2GiB/s") == Approx(2.0 * 1024 * 1024 * 1024));
  CHECK(parse_rate("1MiB") == Approx(1024.0 * 1024));
  CHECK(parse_rate("3TB/s") == Approx(3e12));
  CHECK(parse_rate("64B/s") == Approx(64.0));
  CHECK(parse_rate("0") == Approx(0.0));

  CHECK_FALSE(parse_rate(""));
  CHECK_FALSE(parse_rate("fast"));
  CHECK_FALSE(parse_rate("-5M"));
  CHECK_FALSE(parse_rate("5XB/s"));
  CHECK_FALSE(parse_rate("5Gb/s"));  // bits: refused, not guessed
  CHECK_FALSE(parse_rate("5MBs"));
  CHECK_FALSE(parse_rate("5iB/s"));
  CHECK_FALSE(parse_rate("inf"));
}

TEST_CASE("A flows file: one flow per line, comments and blank lines skipped") {
  const auto flows = parse(
      "# job A: a ring inside leaf01\n"
      "cn0001 cn0002 2GB/s\n"
      "\n"
      "   cn0002\tcn0001   1.5 GB/s   # back, slower\n"
      "cn0003 cn0016 800M\n"
      "cn0004 cn0005 125000\n"
      "cn0004 cn0005 1KiB/s\n");
  REQUIRE(flows.size() == 5);
  CHECK(flows[0].from == "cn0001");
  CHECK(flows[0].to == "cn0002");
  CHECK(flows[0].octets_per_second == Approx(2e9));
  CHECK(flows[1].from == "cn0002");
  CHECK(flows[1].to == "cn0001");
  CHECK(flows[1].octets_per_second == Approx(1.5e9));
  CHECK(flows[2].to == "cn0016");
  CHECK(flows[2].octets_per_second == Approx(800e6));
  CHECK(flows[3].octets_per_second == Approx(125000.0));
  CHECK(flows[4].octets_per_second == Approx(1024.0));  // the same pair twice: both kept

  CHECK(parse("").empty());
  CHECK(parse("# nothing yet\n\n").empty());
}

TEST_CASE("Flows file errors name the file and the line") {
  CHECK(error_of("cn0001 cn0002 1G\ncn0001 cn9999 1G\n") ==
        "jobs.flows:2: unknown host 'cn9999' (not in the simulated fabric)");
  CHECK(error_of("\n# leaf\nleaf01 cn0002 1G\n") ==
        "jobs.flows:3: 'leaf01' is a switch, not a host");
  CHECK(error_of("cn0001 cn0002 fast\n") ==
        "jobs.flows:1: bad rate 'fast': expected octets per second, e.g. 1250000, 800M, "
        "500MB/s, 1.5GB/s, 2GiB/s");
  CHECK(error_of("cn0001 cn0002 1G\n\ncn0001 cn0002 10Gb/s\n") ==
        "jobs.flows:3: bad rate '10Gb/s': rates are octets per second (B), not bits: e.g. 1.5GB/s");
  CHECK(error_of("cn0001 cn0002 -1M\n") ==
        "jobs.flows:1: bad rate '-1M': expected octets per second, e.g. 1250000, 800M, "
        "500MB/s, 1.5GB/s, 2GiB/s");
  CHECK(error_of("cn0007 cn0007 1G\n") == "jobs.flows:1: flow from cn0007 to itself");
  CHECK(error_of("cn0001 cn0002\n") ==
        "jobs.flows:1: expected FROM TO RATE, e.g. cn0001 cn0002 500MB/s");
  CHECK(error_of("cn0001   # the rest went missing\n") ==
        "jobs.flows:1: expected FROM TO RATE, e.g. cn0001 cn0002 500MB/s");
}

TEST_CASE("A flows file that cannot be read says so") {
  try {
    read_flows_file("/nonexistent/jobs.flows", tree().topology);
    FAIL("no error");
  } catch (const FlowsFileError& e) {
    CHECK(std::string(e.what()) == "/nonexistent/jobs.flows: cannot read the flows file");
  }
}
