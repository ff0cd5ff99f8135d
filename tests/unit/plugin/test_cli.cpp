// SPDX-License-Identifier: MIT
// run_plugin end to end: the example plugin as a child process.
#include <catch2/catch.hpp>
#include <csignal>

#include "plugin/add_option.hpp"
#include "plugin/cli.hpp"
#include "support/json_reader.hpp"
#include "support/process.hpp"

using namespace ibpm::plugin;
using ibpm::test::parse_json;
using ibpm::test::ProcessRun;

namespace {

ProcessRun run(std::vector<std::string> args) {
  args.insert(args.begin(), IBPM_EXAMPLE_PLUGIN);
  return ibpm::test::run_process(args);
}

bool starts_with(const std::string& text, std::string_view prefix) {
  return text.compare(0, prefix.size(), prefix) == 0;
}

}  // namespace

TEST_CASE("plugin: OK / WARNING and CRITICAL by thresholds", "[plugin][cli]") {
  auto r = run({"--value", "5", "-w", "10", "-c", "20"});
  CHECK(r.exit_code == 0);
  CHECK(r.out == "IB EXAMPLE OK - value = 5 | value=5;10;20\n\\_[OK] value is 5\n");

  r = run({"--value", "15", "-w", "10", "-c", "20"});
  CHECK(r.exit_code == 1);
  CHECK(r.first_line() == "IB EXAMPLE WARNING - value = 15 | value=15;10;20");

  r = run({"--value", "25.5", "-w", "10", "-c", "20"});
  CHECK(r.exit_code == 2);
  CHECK(r.first_line() == "IB EXAMPLE CRITICAL - value = 25.5 | value=25.5;10;20");

  r = run({"--value", "20", "-w", "10", "-c", "20"});  // inclusive endpoint
  CHECK(r.exit_code == 1);

  r = run({"--value", "-3", "-w", "-5:-1", "-c", "~:0"});
  CHECK(r.exit_code == 0);
  r = run({"--value", "-0.5", "-w", "-5:-1", "-c", "~:0"});
  CHECK(r.exit_code == 1);
  CHECK(r.first_line() == "IB EXAMPLE WARNING - value = -0.5 | value=-0.5;-5:-1;~:0");

  r = run({"--value", "7"});  // no thresholds
  CHECK(r.exit_code == 0);
  CHECK(r.first_line() == "IB EXAMPLE OK - value = 7 | value=7");
}

TEST_CASE("plugin: help and version exit 3", "[plugin][cli]") {
  for (const char* flag : {"--help", "-h"}) {
    INFO(flag);
    const auto r = run({flag});  // --value is required, but not for help
    CHECK(r.exit_code == 3);
    for (const char* text :
         {"Usage", "--warning", "--critical", "--timeout", "--verbose", "--output-format",
          "--version", "--Ca", "--Port", "--state-dir", "Example check"}) {
      INFO(text);
      CHECK(r.out.find(text) != std::string::npos);
    }
  }
  for (const char* flag : {"--version", "-V"}) {
    INFO(flag);
    const auto r = run({flag});
    CHECK(r.exit_code == 3);
    CHECK(r.out == "check_ib_example " + std::string(version()) + "\n");
  }
  CHECK(version() == "0.1.0");
}

TEST_CASE("plugin: usage errors are one UNKNOWN line", "[plugin][cli]") {
  const std::vector<std::vector<std::string>> cases{
      {"--value", "1", "--bogus"},
      {"--value", "1", "extra"},
      {},  // --value missing
      {"--value", "abc"},
      {"--value", "1", "-w", "10:5"},
      {"--value", "1", "-c", "abc"},
      {"--value", "1", "-w", ""},
      {"--value", "1", "--output-format", "xml"},
      {"--value", "1", "-t", "abc"},
      {"--value", "1", "-P", "999"},
  };
  for (const auto& args : cases) {
    std::string joined;
    for (const auto& a : args) joined += a + " ";
    INFO(joined);
    const auto r = run(args);
    CHECK(r.exit_code == 3);
    CHECK(starts_with(r.out, "IB EXAMPLE UNKNOWN - "));
    CHECK(r.line_count() == 1);
  }
  const auto r = run({"--value", "1", "-w", "10:5"});
  CHECK(r.out ==
        "IB EXAMPLE UNKNOWN - --warning: invalid range '10:5': start 10 is greater than end 5\n");
}

TEST_CASE("plugin: an exception from the body is UNKNOWN", "[plugin][cli]") {
  auto r = run({"--value", "1", "--throw", "cannot open /dev/infiniband/umad0"});
  CHECK(r.exit_code == 3);
  CHECK(r.out == "IB EXAMPLE UNKNOWN - cannot open /dev/infiniband/umad0\n");

  // Running into the open-file limit says which limit it is and how to raise it.
  r = run({"--value", "1", "--throw", "STATE/node.locks: cannot open: Too many open files"});
  CHECK(r.exit_code == 3);
  CHECK_THAT(r.out,
             Catch::StartsWith("IB EXAMPLE UNKNOWN - STATE/node.locks: cannot open: Too many "
                               "open files (the open-file limit is "));
  CHECK_THAT(r.out, Catch::Contains("ulimit -n"));

  r = run({"--value", "1", "--throw", "two\nlines | pipe"});
  CHECK(r.exit_code == 3);
  CHECK(r.out == "IB EXAMPLE UNKNOWN - two lines / pipe\n");

  r = run({"--value", "1", "--throw", "boom", "--output-format", "json"});
  CHECK(r.exit_code == 3);
  const auto json = parse_json(r.out);
  CHECK(json["state"].string == "UNKNOWN");
  CHECK(json["exit_code"].number == 3);
  CHECK(json["summary"].string == "boom");
}

TEST_CASE("plugin: hostile output stays on its line", "[plugin][cli]") {
  const auto r = run({"--value", "1", "--output", "<script>x</script>|a\nb", "--label", "it's"});
  CHECK(r.exit_code == 0);
  CHECK(r.out == "IB EXAMPLE OK - it's = 1 | it_s=1\n\\_[OK] <script>x</script>/a b\n");
}

TEST_CASE("plugin: verbosity and JSON output", "[plugin][cli]") {
  auto r = run({"--value", "1", "-vvv"});
  CHECK(r.first_line() == "IB EXAMPLE OK - value = 1 (verbosity 3) | value=1");
  r = run({"--value", "1", "-v", "--verbose"});
  CHECK(r.first_line() == "IB EXAMPLE OK - value = 1 (verbosity 2) | value=1");

  r = run({"--value", "15", "-w", "10", "--output-format", "json"});
  CHECK(r.exit_code == 1);
  const auto json = parse_json(r.out);
  CHECK(json["prefix"].string == "IB EXAMPLE");
  CHECK(json["state"].string == "WARNING");
  CHECK(json["exit_code"].number == 1);
  CHECK(json["summary"].string == "value = 15");
  REQUIRE(json["subchecks"].items.size() == 1);
  CHECK(json["subchecks"][0]["state"].string == "WARNING");
  CHECK(json["subchecks"][0]["output"].string == "value is 15");
  CHECK(json["subchecks"][0]["perfdata"][0]["value"].number == 15);
  CHECK(json["subchecks"][0]["perfdata"][0]["warn"].string == "10");
}

TEST_CASE("plugin: the timeout ends a body blocked in a system call", "[plugin][cli]") {
  auto r = run({"--value", "1", "-t", "1", "--sleep", "5"});
  CHECK(r.exit_code == 3);
  CHECK(r.out == "IB EXAMPLE UNKNOWN - timed out after 1 s\n");
  CHECK(r.seconds < 4);  // loose: the body would take 5 s

  r = run({"--value", "1", "--timeout", "1", "--sleep", "5", "--output-format", "json"});
  CHECK(r.exit_code == 3);
  const auto json = parse_json(r.out);
  CHECK(json["state"].string == "UNKNOWN");
  CHECK(json["summary"].string == "timed out after 1 s");

  r = run({"--value", "1", "-t", "0", "--sleep", "1"});  // 0: no timeout
  CHECK(r.exit_code == 0);
  r = run({"--value", "1", "-t", "5", "--sleep", "1"});  // a body that finishes in time
  CHECK(r.exit_code == 0);
  CHECK(r.first_line() == "IB EXAMPLE OK - value = 1 | value=1");
}

TEST_CASE("plugin: a write past `ulimit -f` fails instead of killing the check", "[plugin][cli]") {
  const auto before = std::signal(SIGXFSZ, SIG_DFL);
  bool ignored = false;
  const char* argv[] = {"check_example"};
  run_plugin(1, argv,
             {.name = "check_example",
              .prefix = "IB EXAMPLE",
              .description = "",
              .add_options = {},
              .body =
                  [&](const CommonOptions&) {
                    ignored = std::signal(SIGXFSZ, SIG_IGN) == SIG_IGN;
                    return Check{State::ok, "fine", {}, {}};
                  },
              .summary = "",
              .icinga2_host_defaults = {}});
  std::signal(SIGXFSZ, before);
  CHECK(ignored);
}

TEST_CASE("tool: a value its option's own parser refuses is a usage error, not an abort",
          "[plugin][cli]") {
  bool ran = false;
  const ToolSpec spec{
      .name = "ibpm-example",
      .description = "An example tool",
      .add_options =
          [](CLI::App& app) {
            add_option_function(
                app, "--shard",
                [](const std::string& text) {
                  throw std::invalid_argument("--shard " + text + ": expected K/N, e.g. 2/4");
                },
                "Share K of N");
          },
      .run = [&ran] { ran = true; }};
  const char* const argv[] = {"ibpm-example", "--shard", "x"};
  CHECK(run_tool(3, argv, spec) == 105);  // CLI11's code for a bad value
  CHECK_FALSE(ran);
}
