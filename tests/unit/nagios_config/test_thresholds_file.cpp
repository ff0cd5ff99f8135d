// SPDX-License-Identifier: MIT
// One thresholds file for every way a check is run: the generator's --thresholds reaches every
// polling check (check_ib_port, check_ib_node, check_ib_fabric) it writes, Nagios and Icinga 2,
// active and passive, with and without zones, and no other check.
#include <catch2/catch.hpp>
#include <sstream>

#include "config_files.hpp"
#include "monitoring_plan.hpp"
#include "plan_fixtures.hpp"
#include "sim/fat_tree.hpp"

using namespace ibpm;
using namespace ibpm::nagios_config;
using namespace ibpm::nagios_config::test;

namespace {

// command_name -> command_line of a Nagios commands file.
std::map<std::string, std::string> nagios_commands(const std::string& text) {
  std::map<std::string, std::string> commands;
  std::istringstream in(text);
  std::string name;
  for (std::string line; std::getline(in, line);) {
    std::istringstream words(line);
    std::string directive, value;
    words >> directive;
    std::getline(words >> std::ws, value);
    if (directive == "command_name") name = value;
    if (directive == "command_line") commands[name] = value;
  }
  return commands;
}

// The lines of the "var settings = { ... }" dictionary of an Icinga 2 settings file.
std::string icinga_settings(const std::string& text) {
  const auto open = text.find("var settings = {");
  REQUIRE(open != std::string::npos);
  return text.substr(open, text.find('}', open) - open);
}

}  // namespace

TEST_CASE("the thresholds file reaches every generated polling check and no other") {
  const sim::FatTree tree = sim::make_fat_tree({.hosts = 16, .radix = 8, .levels = 2});
  const Fabric fabric = delegation::test::fabric_of(tree.topology);
  const std::string file = "/etc/ibpm site/thresholds.conf";  // a space: quoted
  for (const bool passive : {false, true}) {
    INFO("passive " << passive);
    CheckSettings settings = check_settings("/var/lib/ibpm/baseline.cache");
    settings.passive_nodes = passive;
    settings.rrdcached = "unix:/run/ibpm/rrdcached.sock";
    settings.thresholds = file;
    const MonitoringPlan plan = plan_monitoring(fabric, nullptr, plan_options(false));

    // Nagios: the polling commands, which the ib-node services, the port services and the
    // sweep (active, or submitting the passive results) use.
    const auto commands = nagios_commands(nagios_files(plan, settings).at("ibpm-commands.cfg"));
    for (const char* polling : {"check_ib_node", "check_ib_port", "check_ib_fabric"}) {
      INFO(polling);
      REQUIRE(commands.contains(polling));
      CHECK(commands.at(polling).find(" --thresholds '/etc/ibpm site/thresholds.conf'") !=
            std::string::npos);
      CHECK(commands.at(polling).find("$USER13$") == std::string::npos);
    }
    for (const char* other :
         {"check_ib_node_alive", "check_ib_sm", "check_ib_routes", "check_ib_topology"}) {
      INFO(other);
      CHECK(commands.at(other).find("--thresholds") == std::string::npos);
    }

    // Icinga 2: in the settings every command takes its variables from (ib_port_thresholds,
    // ib_node_thresholds, ib_fabric_thresholds), with and without zones.
    for (const unsigned zones : {0u, 2u}) {
      INFO("zones " << zones);
      const ConfigFiles files =
          icinga_files(plan_monitoring(fabric, nullptr, plan_options(false, zones)), settings);
      const std::string name =
          zones ? "ibpm-zones.d/ibpm-global/ibpm-settings.conf" : "ibpm-settings.conf";
      REQUIRE(files.contains(name));
      CHECK(icinga_settings(files.at(name))
                .find("    thresholds = \"/etc/ibpm site/thresholds.conf\"\n") !=
            std::string::npos);
    }
  }

  // None given: no option, and the built-in thresholds.
  const CheckSettings none = check_settings("");
  const MonitoringPlan plan = plan_monitoring(fabric, nullptr, plan_options(false));
  CHECK(nagios_files(plan, none).at("ibpm-commands.cfg").find("--thresholds") == std::string::npos);
  CHECK(icinga_settings(icinga_files(plan, none).at("ibpm-settings.conf")).find("thresholds") ==
        std::string::npos);
}
