// SPDX-License-Identifier: MIT
// The Icinga 2 CheckCommand written from a check's option table.
#include <CLI/CLI.hpp>
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "plugin/icinga2_command.hpp"

using ibpm::plugin::icinga2_check_command;

TEST_CASE("plugin: a CheckCommand has every visible option, as its kind asks",
          "[plugin][icinga2]") {
  CLI::App app("An example", "check_ib_example");
  app.set_help_flag("-h,--help", "Help");
  int verbosity = 0;
  unsigned timeout = 30;
  std::string node, hidden, ca_port;
  std::vector<std::string> warn;
  bool strict = false;
  app.add_flag("-v,--verbose", verbosity, "More detail");
  app.add_option("-t,--timeout", timeout, "Give up after SECONDS")->capture_default_str();
  app.add_option("-n,--node", node, "The \"node\" to check\\here")->required();
  app.add_option("--warn", warn, "WARNING thresholds (repeatable)");
  app.add_flag("!--no-strict", strict, "Be lenient");
  app.add_option("-P,--Port", ca_port, "HCA port");
  app.add_option("--mads-in-flight,--window", timeout, "MADs at once");
  app.add_option("--secret-knob", hidden, "Not shown")->group("");

  const std::string text =
      icinga2_check_command(app, {"check_ib_example", "What it watches.", {{"node", "$ib_guid$"}}});
  INFO(text);
  CHECK(text.rfind("// What it watches.\nobject CheckCommand \"ib_example\" {\n", 0) == 0);
  CHECK(text.find("command = [ IbpmPluginDir + \"/check_ib_example\" ]") != std::string::npos);
  // A flag is set_if, an option a value with its default, a required one required.
  CHECK(text.find("\"--verbose\" = {\n      set_if = \"$ib_example_verbose$\"\n") !=
        std::string::npos);
  CHECK(text.find("\"--no-strict\" = {\n      set_if = \"$ib_example_no_strict$\"\n") !=
        std::string::npos);
  CHECK(text.find("value = \"$ib_example_timeout$\"\n      description = \"Give up after "
                  "SECONDS (default 30)\"") != std::string::npos);
  CHECK(text.find("value = \"$ib_example_node$\"\n      required = true\n") != std::string::npos);
  CHECK(text.find("value = \"$ib_example_warn$\"\n      repeat_key = true\n") != std::string::npos);
  // Quotes and backslashes escaped; the HCA's port is ca_port; an old alias is not an argument.
  CHECK(text.find(R"(description = "The \"node\" to check\\here")") != std::string::npos);
  CHECK(text.find("\"--Port\" = {\n      value = \"$ib_example_ca_port$\"") != std::string::npos);
  CHECK(text.find("\"--mads-in-flight\"") != std::string::npos);
  CHECK(text.find("--window") == std::string::npos);
  // Hidden options and help are not arguments; the host's defaults close the object.
  CHECK(text.find("secret") == std::string::npos);
  CHECK(text.find("--help") == std::string::npos);
  CHECK(text.find("  vars.ib_example_node = \"$ib_guid$\"\n}\n") != std::string::npos);
}
