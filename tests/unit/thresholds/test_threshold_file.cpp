// SPDX-License-Identifier: MIT

#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "support/temp_dir.hpp"
#include "thresholds/rate_thresholds.hpp"

using namespace ibpm;
using namespace ibpm::thresholds;
using ibpm::plugin::Range;
using ibpm::plugin::State;

namespace fs = std::filesystem;

namespace {

RateRange range_per_hour(double end) { return RateRange{Range{0, end, false}, RateUnit::per_hour}; }

RateThresholds load(const std::string& text, RateThresholds base = RateThresholds::none()) {
  std::istringstream in(text);
  base.load_stream(in, "t.conf");
  return base;
}

std::string load_error(const std::string& text) {
  try {
    load(text);
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return "no error";
}

}  // namespace

TEST_CASE("thresholds file: the documented example", "[thresholds][file]") {
  const RateThresholds t = load(
      "# metric          warning   critical\n"
      "symbol_errors     10/h      100/h\n"
      "link_downed       -         1/h\n"
      "xmit_wait_pct     10        30\n");
  REQUIRE(t.find("symbol_errors"));
  CHECK(t.find("symbol_errors")->warning == range_per_hour(10));
  CHECK(t.find("symbol_errors")->critical == range_per_hour(100));
  CHECK_FALSE(t.find("link_downed")->warning);
  CHECK(t.find("link_downed")->critical == range_per_hour(1));
  CHECK(t.find("xmit_wait_pct")->warning->range == Range{0, 10, false});
  CHECK(t.find("xmit_wait_pct")->critical->range == Range{0, 30, false});
  CHECK(t.find("rcv_errors") == nullptr);
}

TEST_CASE("thresholds file: comments / blank lines / tabs / CRLF / aliases", "[thresholds][file]") {
  const RateThresholds t = load(
      "\n"
      "   # indented comment\n"
      "\t\n"
      "PortXmitDiscards\t5/min\t\t@1:2/min   # trailing comment\n"
      "xmit_util 80% 95%\r\n"
      "  rcv_pkts  -  -  \n"
      "#symbol_errors 1 2\n");
  CHECK(t.find("xmit_discards")->warning == RateRange{{0, 5, false}, RateUnit::per_minute});
  CHECK(t.find("xmit_discards")->critical == RateRange{{1, 2, true}, RateUnit::per_minute});
  CHECK(t.find("xmit_util")->warning->range == Range{0, 80, false});
  CHECK(t.find("xmit_util")->critical->range == Range{0, 95, false});
  CHECK(t.find("rcv_pkts") == nullptr);
  CHECK(t.find("symbol_errors") == nullptr);
}

TEST_CASE("thresholds file: later lines win / and only named metrics change",
          "[thresholds][file]") {
  const RateThresholds t = load(
      "symbol_errors 1/h 2/h\n"
      "SymbolErrorCounter 3/h -\n"
      "link_integrity - -\n",
      RateThresholds::defaults());
  CHECK(t.find("symbol_errors")->warning == range_per_hour(3));
  CHECK_FALSE(t.find("symbol_errors")->critical);
  CHECK(t.find("link_integrity") == nullptr);                  // the file removed both defaults
  CHECK(t.find("rcv_errors")->warning == range_per_hour(10));  // defaults kept for the rest
  CHECK(t.find("rcv_errors")->critical == range_per_hour(100));
  CHECK(t.find("xmit_util")->warning->range == Range{0, 90, false});
}

TEST_CASE("thresholds file: each error names file and line", "[thresholds][file]") {
  CHECK(load_error("# ok\nfoo 1/h 2/h\n") == "t.conf:2: unknown metric 'foo'");
  CHECK(load_error("symbol_errors 1/h\n") ==
        "t.conf:1: expected METRIC WARNING CRITICAL, found 2 fields");
  CHECK(load_error("\n\nsymbol_errors\n") ==
        "t.conf:3: expected METRIC WARNING CRITICAL, found 1 field");
  CHECK(load_error("symbol_errors 1/h 2/h 3/h\n") ==
        "t.conf:1: expected METRIC WARNING CRITICAL, found 4 fields");
  CHECK(load_error("link_downed 1/h 2/h\nsymbol_errors 1/h 5:2/h\n") ==
        "t.conf:2: invalid range '5:2/h': start 5 is greater than end 2");
  CHECK(load_error("symbol_errors 1/d 2/h\n") ==
        "t.conf:1: invalid rate threshold '1/d': unknown unit '/d' (use /s, /min or /h)");
  CHECK(load_error("\n\n\n\nxmit_wait_pct 10/s 30\n") ==
        "t.conf:5: xmit_wait_pct is a percentage: '10/s' cannot take a rate unit");
  CHECK(load_error("symbol_errors 10% -\n") ==
        "t.conf:1: invalid rate threshold '10%': '%' is only for percentages; a rate takes /s, "
        "/min or /h");
}

TEST_CASE("thresholds file: an error changes nothing", "[thresholds][file]") {
  RateThresholds t = RateThresholds::defaults();
  std::istringstream in("symbol_errors 1/h 2/h\nbogus 1 2\n");
  CHECK_THROWS_AS(t.load_stream(in, "x"), std::runtime_error);
  CHECK(t.find("symbol_errors")->warning == range_per_hour(10));
  CHECK(t.find("symbol_errors")->critical == range_per_hour(100));
}

TEST_CASE("thresholds file: load_file reads a file / or says it cannot", "[thresholds][file]") {
  const ibpm::test::TempDir tmp("thresholds");
  const fs::path dir = tmp.path();
  const fs::path path = dir / "thresholds.conf";
  {
    std::ofstream out(path);
    out << "# site thresholds\nlink_downed - 2/h\nxmit_discards 5/min nonsense\n";
  }
  RateThresholds t = RateThresholds::defaults();
  CHECK_THROWS_WITH(t.load_file(path.string()),
                    path.string() + ":3: invalid range 'nonsense': 'nonsense' is not a number");
  {
    std::ofstream out(path);
    out << "# site thresholds\nlink_downed - 2/h\n";
  }
  t.load_file(path.string());
  CHECK_FALSE(t.find("link_downed")->warning);
  CHECK(t.find("link_downed")->critical == range_per_hour(2));
  CHECK(t.find("symbol_errors")->warning == range_per_hour(10));

  const std::string missing = (dir / "missing.conf").string();
  CHECK_THROWS_WITH(t.load_file(missing), Catch::StartsWith(missing + ": cannot read"));
  CHECK_THROWS_WITH(t.load_file(dir.string()), Catch::StartsWith(dir.string() + ": cannot read"));
}

TEST_CASE("thresholds file: a byte order mark at the start is skipped", "[thresholds][file]") {
  const RateThresholds t = load("\xEF\xBB\xBFsymbol_errors 5/h 50/h\n");
  REQUIRE(t.find("symbol_errors"));
  CHECK(t.find("symbol_errors")->warning == range_per_hour(5));
}
