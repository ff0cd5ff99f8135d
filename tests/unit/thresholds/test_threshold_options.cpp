// SPDX-License-Identifier: MIT

#include <unistd.h>

#include <CLI/CLI.hpp>
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <vector>

#include "thresholds/threshold_options.hpp"

using namespace ibpm;
using namespace ibpm::thresholds;
using ibpm::plugin::Range;
using ibpm::plugin::State;

namespace fs = std::filesystem;

namespace {

RateRange hourly_range(double end) { return RateRange{Range{0, end, false}, RateUnit::per_hour}; }

// Parses argv as a check would receive it.
void parse(CLI::App& app, std::vector<std::string> args) {
  args.insert(args.begin(), "check_test");
  std::vector<const char*> argv;
  for (const std::string& arg : args) argv.push_back(arg.c_str());
  app.parse(static_cast<int>(argv.size()), argv.data());
}

struct TempFile {
  fs::path path;
  explicit TempFile(const std::string& text)
      : path(fs::temp_directory_path() /
             ("ibpm-threshold-options-" + std::to_string(getpid()) + ".conf")) {
    std::ofstream(path) << text;
  }
  ~TempFile() { fs::remove(path); }
};

}  // namespace

TEST_CASE("threshold options: absent means the defaults", "[thresholds][options]") {
  CLI::App app("test", "check_test");
  RateThresholdOptions options;
  add_rate_threshold_options(app, options);
  parse(app, {});
  CHECK(options.warning.empty());
  CHECK(options.critical.empty());
  CHECK(options.file.empty());
  CHECK_FALSE(options.no_defaults);
  const RateThresholds t = resolve_thresholds(options);
  CHECK(t.find("symbol_errors")->warning == hourly_range(10));
  CHECK(t.describe("link_integrity") == "warning 1/h, critical 10/h");
  CHECK(t.describe("link_downed") == "no thresholds");  // judged per cable, as flapping
}

TEST_CASE("threshold options: --warn/--crit repeatable / aliases / clearing",
          "[thresholds][options]") {
  CLI::App app("test", "check_test");
  RateThresholdOptions options;
  add_rate_threshold_options(app, options);
  parse(app, {"--warn", "symbol_errors=3599/h", "--crit=PortXmitDiscards=@1:5/min", "--warn",
              "xmit_util=80%", "--crit", "link_integrity=-", "--warn", "symbol_errors=5/h"});
  CHECK(options.warning ==
        std::vector<std::string>{"symbol_errors=3599/h", "xmit_util=80%", "symbol_errors=5/h"});
  CHECK(options.critical ==
        std::vector<std::string>{"PortXmitDiscards=@1:5/min", "link_integrity=-"});

  const RateThresholds t = resolve_thresholds(options);
  CHECK(t.find("symbol_errors")->warning == hourly_range(5));     // the later --warn wins
  CHECK(t.find("symbol_errors")->critical == hourly_range(100));  // default kept
  CHECK(t.find("xmit_discards")->critical == RateRange{{1, 5, true}, RateUnit::per_minute});
  CHECK(t.find("xmit_util")->warning->range == Range{0, 80, false});
  CHECK(t.find("link_integrity")->warning == hourly_range(1));
  CHECK_FALSE(t.find("link_integrity")->critical);
}

TEST_CASE("threshold options: 3599/h alerts at 1/s / 3601/h does not", "[thresholds][options]") {
  for (const auto& [range, expected] :
       {std::pair{"3599/h", State::warning}, std::pair{"3601/h", State::ok}}) {
    INFO(range);
    CLI::App app("test", "check_test");
    RateThresholdOptions options;
    add_rate_threshold_options(app, options);
    parse(app, {"--warn", std::string("symbol_errors=") + range, "--crit", "symbol_errors=-"});
    CHECK(resolve_thresholds(options).evaluate("symbol_errors", 1.0) == expected);
  }
}

TEST_CASE("threshold options: precedence defaults < file < command line", "[thresholds][options]") {
  const TempFile file(
      "symbol_errors 20/h 200/h\n"
      "link_downed 2/h -\n"
      "rcv_pkts 1000000/s -\n");
  CLI::App app("test", "check_test");
  RateThresholdOptions options;
  add_rate_threshold_options(app, options);

  SECTION("file over defaults, command line over file") {
    parse(app, {"--thresholds", file.path.string(), "--crit", "symbol_errors=150/h"});
    const RateThresholds t = resolve_thresholds(options);
    CHECK(t.find("symbol_errors")->warning == hourly_range(20));    // file
    CHECK(t.find("symbol_errors")->critical == hourly_range(150));  // command line
    CHECK(t.find("link_downed")->warning == hourly_range(2));       // file
    CHECK_FALSE(t.find("link_downed")->critical);                   // file cleared the default
    CHECK(t.find("rcv_errors")->critical == hourly_range(100));     // default
    CHECK(t.find("rcv_pkts")->warning->range == Range{0, 1000000, false});
  }
  SECTION("--no-default-thresholds keeps only file and command line") {
    parse(app, {"--no-default-thresholds", "--thresholds", file.path.string(), "--warn",
                "rcv_errors=1/h"});
    CHECK(options.no_defaults);
    const RateThresholds t = resolve_thresholds(options);
    CHECK(t.find("symbol_errors")->warning == hourly_range(20));
    CHECK(t.find("rcv_errors")->warning == hourly_range(1));
    CHECK_FALSE(t.find("rcv_errors")->critical);
    CHECK(t.find("xmit_util") == nullptr);
    CHECK(t.find("link_integrity") == nullptr);
  }
  SECTION("--no-default-thresholds alone: nothing") {
    parse(app, {"--no-default-thresholds"});
    const RateThresholds t = resolve_thresholds(options);
    for (const std::string& metric : RateThresholds::metric_names())
      CHECK(t.find(metric) == nullptr);
  }
}

TEST_CASE("threshold options: a malformed --warn/--crit is a usage error naming it",
          "[thresholds][options]") {
  struct Bad {
    std::vector<std::string> args;
    std::string message;
  };
  const Bad bad[] = {
      {{"--warn", "symbol_errors"}, "--warn: 'symbol_errors': expected METRIC=RANGE"},
      {{"--warn", "foo=1/h"}, "--warn: 'foo=1/h': unknown metric 'foo'"},
      {{"--crit", "symbol_errors=abc"},
       "--crit: 'symbol_errors=abc': invalid range 'abc': 'abc' is not a number"},
      {{"--crit", "symbol_errors=10/d"},
       "--crit: 'symbol_errors=10/d': invalid rate threshold '10/d': unknown unit '/d' (use /s, "
       "/min or /h)"},
      {{"--warn", "xmit_util=90/s"},
       "--warn: 'xmit_util=90/s': xmit_util is a percentage: '90/s' cannot take a rate unit"},
      {{"--warn", "=1/h"}, "--warn: '=1/h': unknown metric ''"},
  };
  for (const Bad& b : bad) {
    INFO(b.args[1]);
    CLI::App app("test", "check_test");
    RateThresholdOptions options;
    add_rate_threshold_options(app, options);
    try {
      parse(app, b.args);
      FAIL("no exception");
    } catch (const CLI::ParseError& e) {
      CHECK(std::string(e.what()) == b.message);
    }
    // resolve_thresholds gives the same one-line message for the same text.
    RateThresholdOptions direct;
    (b.args[0] == "--warn" ? direct.warning : direct.critical).push_back(b.args[1]);
    CHECK_THROWS_WITH(resolve_thresholds(direct), b.message);
    CHECK_THROWS_AS(resolve_thresholds(direct), std::invalid_argument);
  }
  CLI::App app("test", "check_test");
  RateThresholdOptions options;
  add_rate_threshold_options(app, options);
  CHECK_THROWS_AS(parse(app, {"--warn"}), CLI::ParseError);  // a value is required
  // One value per --warn: a second word is not swallowed as another assignment.
  CHECK_THROWS_AS(parse(app, {"--warn", "symbol_errors=1/h", "link_downed=1/h"}), CLI::ExtrasError);
}

TEST_CASE("threshold options: a bad thresholds file is an invalid_argument with its line",
          "[thresholds][options]") {
  const TempFile file("symbol_errors 1/h 2/h\nsymbol_errors 1/h\n");
  RateThresholdOptions options;
  options.file = file.path.string();
  CHECK_THROWS_WITH(resolve_thresholds(options),
                    file.path.string() + ":2: expected METRIC WARNING CRITICAL, found 2 fields");
  CHECK_THROWS_AS(resolve_thresholds(options), std::invalid_argument);
  options.file = file.path.string() + ".missing";
  CHECK_THROWS_WITH(resolve_thresholds(options), Catch::StartsWith(options.file + ": cannot read"));
}

TEST_CASE("threshold options: help lists the group / metrics and defaults",
          "[thresholds][options]") {
  CLI::App app("test", "check_test");
  app.footer("Exit codes: 0 OK");  // run_plugin's own footer is kept
  RateThresholdOptions options;
  add_rate_threshold_options(app, options);
  const std::string help = app.help();
  CHECK(help.find("Thresholds:") != std::string::npos);
  for (const char* text : {"--warn", "--crit", "--thresholds", "--no-default-thresholds",
                           "METRIC=RANGE", "Exit codes: 0 OK", "/min"}) {
    INFO(text);
    CHECK(help.find(text) != std::string::npos);
  }
  for (const std::string& metric : RateThresholds::metric_names()) {
    INFO(metric);
    CHECK(help.find("  " + metric + " ") != std::string::npos);
  }
  const std::string table = rate_thresholds_help();
  CHECK(table.find("  symbol_errors     10/h      100/h\n") != std::string::npos);
  CHECK(table.find("  rcv_switch_relay  100/h     -\n") != std::string::npos);
  CHECK(table.find("  xmit_wait_pct     10%       30%") != std::string::npos);
  CHECK(table.find("  xmit_data         -         -\n") != std::string::npos);
}
