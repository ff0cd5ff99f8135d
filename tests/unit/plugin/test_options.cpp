// SPDX-License-Identifier: MIT

#include <CLI/CLI.hpp>
#include <catch2/catch.hpp>
#include <optional>
#include <string>

#include "plugin/options.hpp"

using namespace ibpm::plugin;

TEST_CASE("fabric options: defaults and the shared table", "[plugin][options]") {
  CLI::App app("test", "check_test");
  FabricOptions fabric;
  add_fabric_options(app, fabric);

  SECTION("defaults") {
    app.parse("", false);
    CHECK(fabric.ca.empty());
    CHECK(fabric.port == 0);
    CHECK(fabric.cache.empty());
    CHECK(fabric.node_name_map.empty());
    CHECK(fabric.state_dir == "/var/lib/ibpm");
  }
  SECTION("short options") {
    app.parse("-C mlx5_0 -P 2 --cache /tmp/c --node-name-map /etc/map --state-dir /tmp/s", false);
    CHECK(fabric.ca == "mlx5_0");
    CHECK(fabric.port == 2);
    CHECK(fabric.cache == "/tmp/c");
    CHECK(fabric.node_name_map == "/etc/map");
    CHECK(fabric.state_dir == "/tmp/s");
  }
  SECTION("long options") {
    app.parse("--Ca mlx4_1 --Port 1", false);
    CHECK(fabric.ca == "mlx4_1");
    CHECK(fabric.port == 1);
  }
  SECTION("port range") {
    CHECK_THROWS_AS(app.parse("-P 255", false), CLI::ValidationError);
    CHECK_THROWS_AS(app.parse("-P x", false), CLI::ParseError);
  }
  SECTION("help lists them in one group") {
    const std::string help = app.help();
    CHECK(help.find("Fabric") != std::string::npos);
    for (const char* name : {"--Ca", "--Port", "--cache", "--node-name-map", "--state-dir"}) {
      INFO(name);
      CHECK(help.find(name) != std::string::npos);
    }
    CHECK(help.find("/var/lib/ibpm") != std::string::npos);
  }
}

TEST_CASE("saved fabric options: no -C/-P for the commands that never query the fabric",
          "[plugin][options]") {
  CLI::App app("test", "ibpm-test");
  FabricOptions fabric;
  add_saved_fabric_options(app, fabric);
  app.parse("--cache /tmp/c --node-name-map /etc/map --state-dir /tmp/s", false);
  CHECK(fabric.cache == "/tmp/c");
  CHECK(fabric.node_name_map == "/etc/map");
  CHECK(fabric.state_dir == "/tmp/s");
  CHECK_THROWS_AS(app.parse("-C mlx5_0", false), CLI::ExtrasError);
  CHECK(app.help().find("--Ca") == std::string::npos);
  CHECK(app.help().find("--Port") == std::string::npos);
}

TEST_CASE("jobs and rrdcached options: one base text, the command's use after it",
          "[plugin][options]") {
  CLI::App app("test", "ibpm-test");
  std::string jobs, rrdcached;
  add_jobs_option(app, jobs, "what this command does with them");
  add_rrdcached_option(app, rrdcached, "what goes through it");
  const std::string help = app.help();
  CHECK(help.find("--jobs FILE") != std::string::npos);
  CHECK(help.find("Jobs file (JOBID HOSTLIST lines") != std::string::npos);
  CHECK(help.find("what this command does with them") != std::string::npos);
  CHECK(help.find("--rrdcached ADDR") != std::string::npos);
  CHECK(help.find("rrdcached address (unix:PATH or HOST[:PORT]): what goes through it") !=
        std::string::npos);
  // The file is read (and refused) by the command, not at parse time: see options.hpp.
  app.parse("--jobs /nonexistent/jobs.txt", false);
  CHECK(jobs == "/nonexistent/jobs.txt");
}

TEST_CASE("threshold options parse ranges at parse time", "[plugin][options]") {
  CLI::App app("test", "check_test");
  Thresholds thresholds;
  add_threshold_options(app, thresholds);

  SECTION("absent") {
    app.parse("", false);
    CHECK_FALSE(thresholds.warning);
    CHECK_FALSE(thresholds.critical);
  }
  SECTION("short and long") {
    app.parse("-w 10:20 --critical @5", false);
    CHECK(thresholds.warning == Range{10, 20, false});
    CHECK(thresholds.critical == Range{0, 5, true});
  }
  SECTION("negative ranges as separate arguments") {
    app.parse("-w -5:-1 -c ~:-0.5", false);
    CHECK(thresholds.warning == Range{-5, -1, false});
    CHECK(thresholds.critical == parse_range("~:-0.5"));
  }
  SECTION("with =") {
    app.parse("--warning=-10: --critical=-20:", false);
    CHECK(thresholds.warning == parse_range("-10:"));
    CHECK(thresholds.critical == parse_range("-20:"));
  }
  SECTION("a malformed range is a parse error naming it") {
    try {
      app.parse("-w 10:5", false);
      FAIL("no exception");
    } catch (const CLI::ParseError& e) {
      CHECK(std::string(e.what()) ==
            "--warning: invalid range '10:5': start 10 is greater than end 5");
    }
    CHECK_THROWS_AS(app.parse("-c abc", false), CLI::ParseError);
  }
}

TEST_CASE("xmit-wait-tick option: a positive tick, else a reason naming the option",
          "[plugin][options]") {
  CLI::App app("test", "ibpm-test");
  std::optional<double> tick;
  add_xmit_wait_tick_option(app, tick);

  SECTION("a positive tick") {
    app.parse("--xmit-wait-tick 2.5", false);
    REQUIRE(tick);
    CHECK(*tick == 2.5);
  }
  SECTION("zero, negative or not a number") {
    for (const char* value : {"0", "-1", "x", "3ns"}) {
      CAPTURE(value);
      try {
        app.parse(std::string("--xmit-wait-tick ") + value, false);
        FAIL("accepted");
      } catch (const CLI::ValidationError& e) {
        CHECK(std::string(e.what()) == std::string("--xmit-wait-tick: '") + value +
                                           "' is not a tick length: give the nanoseconds of one "
                                           "PortXmitWait tick, above 0");
      }
      CHECK_FALSE(tick);
    }
  }
  SECTION("its help names the type as CLI11's PositiveNumber does") {
    CHECK(app.help().find("--xmit-wait-tick NS:POSITIVE") != std::string::npos);
  }
}

TEST_CASE("add_option.hpp: CLI11's registration and modifiers through a handle",
          "[plugin][options]") {
  CLI::App app("test", "ibpm-test");
  std::string mode = "a";
  unsigned count = 3;
  bool flag = false;
  std::string file;
  add_option(app, "--mode", mode, "Mode").one_of({"a", "b"}).show_default().group("G");
  const OptionRef counted = add_option(app, "--count", count, "Count").in_range(1u, 5u);
  add_flag(app, "--flag", flag, "Flag").excludes(counted);
  add_option(app, "--file", file, "File").existing_file();

  const std::string help = app.help();
  CHECK(help.find("--mode TEXT:{a,b}=a") != std::string::npos);
  CHECK(help.find("\nG:\n") != std::string::npos);
  CHECK(help.find("--count UINT:UINT in [1 - 5]") != std::string::npos);
  app.parse("--mode b --count 5", false);
  CHECK(mode == "b");
  CHECK(count == 5);
  CHECK(counted.count() == 1);
  CHECK_THROWS_AS(app.parse("--mode c", false), CLI::ValidationError);
  CHECK_THROWS_AS(app.parse("--count 6", false), CLI::ValidationError);
  CHECK_THROWS_AS(app.parse("--count 2 --flag", false), CLI::ExcludesError);
  CHECK_THROWS_AS(app.parse("--file /nonexistent/file", false), CLI::ValidationError);
}
