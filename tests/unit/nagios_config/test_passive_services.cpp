// SPDX-License-Identifier: MIT
// --node-services passive for Nagios 4: every switch's ib-node service passive with freshness
// checking, the fabric sweep told where to submit (for Icinga 2 too: its API), and the sweep
// naming hosts as the generator does.
#include <catch2/catch.hpp>
#include <sstream>

#include "config_files.hpp"
#include "monitoring_plan.hpp"
#include "plan_fixtures.hpp"
#include "products/monitoring_names.hpp"
#include "sim/fat_tree.hpp"

using namespace ibpm;
using namespace ibpm::nagios_config;
using namespace ibpm::nagios_config::test;

namespace {

// The "define service { ... }" blocks of a file, each as its text.
std::vector<std::string> service_blocks(const std::string& text) {
  std::vector<std::string> blocks;
  for (std::size_t at = text.find("define service {"); at != std::string::npos;
       at = text.find("define service {", at + 1))
    blocks.push_back(text.substr(at, text.find('}', at) - at));
  return blocks;
}

bool has_line(const std::string& block, const std::string& directive, const std::string& value) {
  std::istringstream in(block);
  for (std::string line; std::getline(in, line);) {
    std::istringstream words(line);
    std::string d, v;
    words >> d;
    std::getline(words >> std::ws, v);
    if (d == directive && v == value) return true;
  }
  return false;
}

}  // namespace

TEST_CASE("passive switch services check freshness and the sweep submits their results") {
  const sim::FatTree tree = sim::make_fat_tree({.hosts = 64, .radix = 8, .levels = 3});
  const Fabric fabric = delegation::test::fabric_of(tree.topology);
  const MonitoringPlan plan = plan_monitoring(fabric, nullptr, plan_options(true));
  CheckSettings settings = check_settings("");
  settings.passive_nodes = true;
  const ConfigFiles files = nagios_files(plan, settings);
  const auto blocks = service_blocks(files.at("ibpm-services.cfg"));

  std::size_t passive = 0;
  for (const std::string& block : blocks) {
    INFO(block);
    if (has_line(block, "service_description", "ib-fabric")) {
      CHECK(has_line(block, "check_command",
                     "check_ib_fabric!--nagios-spool /var/lib/nagios4/spool/checkresults "
                     "--nagios-cas"));
      continue;
    }
    // The subnet managers' and the routes' own.
    if (has_line(block, "service_description", "ib-sm") ||
        has_line(block, "service_description", "ib-routes"))
      continue;
    REQUIRE(has_line(block, "service_description", "ib-node"));
    ++passive;
    CHECK(has_line(block, "active_checks_enabled", "0"));
    CHECK(has_line(block, "passive_checks_enabled", "1"));
    CHECK(has_line(block, "check_freshness", "1"));
    CHECK(has_line(block, "freshness_threshold", "660"));
    CHECK(has_line(block, "check_command", "check_ib_sweep_result!660"));
  }
  CHECK(passive == plan.switches);
  CHECK(files.at("ibpm-commands.cfg").find("command_name    check_ib_sweep_result") !=
        std::string::npos);

  // No host check polls the fabric again between the sweeps: they run on demand only.
  const std::string hosts = files.at("ibpm-hosts.cfg");
  std::size_t on_demand = 0;
  for (std::size_t at = hosts.find("check_interval          0\n"); at != std::string::npos;
       at = hosts.find("check_interval          0\n", at + 1))
    ++on_demand;
  CHECK(on_demand == plan.hosts.size());

  // The sweep names every switch's host as the generator did.
  const auto names = products::host_names(fabric, nullptr, true, plan.fabric_host);
  for (const PlannedHost& host : plan.hosts) CHECK(names.at(host.guid) == host.name);

  // The default stays active, and a shorter freshness is taken as given.
  settings.freshness = 8;
  CHECK(nagios_files(plan, settings).at("ibpm-services.cfg").find("freshness_threshold     8\n") !=
        std::string::npos);
  settings.passive_nodes = false;
  const std::string active = nagios_files(plan, settings).at("ibpm-services.cfg");
  CHECK(active.find("active_checks_enabled") == std::string::npos);
  CHECK(active.find("--nagios-spool") == std::string::npos);
  CHECK(nagios_files(plan, settings).at("ibpm-hosts.cfg").find("check_interval") ==
        std::string::npos);
}

TEST_CASE("Icinga 2 passive: the sweep's command gets the API it submits to") {
  const sim::FatTree tree = sim::make_fat_tree({.hosts = 64, .radix = 8, .levels = 3});
  const Fabric fabric = delegation::test::fabric_of(tree.topology);
  const MonitoringPlan plan = plan_monitoring(fabric, nullptr, plan_options(true));
  CheckSettings settings = check_settings("");
  settings.passive_nodes = true;
  std::string text = icinga_files(plan, settings).at("ibpm-settings.conf");
  // By default the API of the endpoint running the sweep, as the ApiUser of the README.
  CHECK(text.find("  vars.ib_fabric_icinga2_api = \"https://\" + NodeName + \":5665\"\n") !=
        std::string::npos);
  CHECK(text.find("  vars.ib_fabric_icinga2_ca = \"/var/lib/icinga2/certs/ca.crt\"\n") !=
        std::string::npos);
  CHECK(text.find("  vars.ib_fabric_icinga2_user = \"ibpm\"\n") != std::string::npos);
  CHECK(
      text.find("  vars.ib_fabric_icinga2_password_file = \"/etc/icinga2/ibpm-api.password\"\n") !=
      std::string::npos);
  CHECK(text.find("  vars.ib_fabric_nagios_cas = true\n") != std::string::npos);  // --cas
  settings.icinga2_api = "https://icinga.example.org:5665";
  settings.icinga2_password_file = "/etc/ibpm/\"api\".password";
  text = icinga_files(plan, settings).at("ibpm-settings.conf");
  CHECK(text.find("  vars.ib_fabric_icinga2_api = \"https://icinga.example.org:5665\"\n") !=
        std::string::npos);
  CHECK(
      text.find("  vars.ib_fabric_icinga2_password_file = \"/etc/ibpm/\\\"api\\\".password\"\n") !=
      std::string::npos);
  // Active switch services: nothing submits.
  settings.passive_nodes = false;
  CHECK(icinga_files(plan, settings).at("ibpm-settings.conf").find("ibpm_icinga2") ==
        std::string::npos);
}

TEST_CASE("Icinga 2 passive: the generator writes the sweep's least-privilege ApiUser") {
  const sim::FatTree tree = sim::make_fat_tree({.hosts = 64, .radix = 8, .levels = 3});
  const Fabric fabric = delegation::test::fabric_of(tree.topology);
  CheckSettings settings = check_settings("");
  settings.passive_nodes = true;
  const MonitoringPlan plan = plan_monitoring(fabric, nullptr, plan_options(true));
  // Without a CN: no ApiUser (the README's password user is the operator's to write).
  CHECK(icinga_files(plan, settings).count("ibpm-api-user.conf") == 0);

  settings.icinga2_api_user_cn = "collector01.example.org";
  ConfigFiles files = icinga_files(plan, settings);
  REQUIRE(files.count("ibpm-api-user.conf") == 1);
  const std::string user = files.at("ibpm-api-user.conf");
  CHECK(user.substr(user.find("object ApiUser")) ==
        "object ApiUser \"ibpm\" {\n"
        "  client_cn = \"collector01.example.org\"\n"
        "  permissions = [ {\n"
        "    permission = \"actions/process-check-result\"\n"
        "    filter = {{ service.name == \"ib-node\" }}\n"
        "  } ]\n"
        "}\n");
  CHECK(user.find("password") == std::string::npos);
  // The sweep presents the certificate that CN names, and no password.
  const std::string text = files.at("ibpm-settings.conf");
  CHECK(text.find("  vars.ib_fabric_icinga2_cert = \"/etc/icinga2/ibpm-api.crt\"\n") !=
        std::string::npos);
  CHECK(text.find("  vars.ib_fabric_icinga2_key = \"/etc/icinga2/ibpm-api.key\"\n") !=
        std::string::npos);
  CHECK(text.find("ib_fabric_icinga2_user") == std::string::npos);
  CHECK(text.find("ib_fabric_icinga2_password_file") == std::string::npos);

  // A CN or user name with a quote stays one string.
  settings.icinga2_api_user_cn = "evil\" }\nobject ApiUser \"root";
  CHECK(icinga_files(plan, settings)
            .at("ibpm-api-user.conf")
            .find("  client_cn = \"evil\\\" }\\nobject ApiUser \\\"root\"\n") != std::string::npos);

  // With zones: in the global zone, so every satellite's API takes its sweep's results.
  settings.icinga2_api_user_cn = "collector01.example.org";
  const MonitoringPlan zoned = plan_monitoring(fabric, nullptr, plan_options(true, 2));
  files = icinga_files(zoned, settings);
  CHECK(files.count("ibpm-zones.d/ibpm-global/ibpm-api-user.conf") == 1);
  // Active switch services: nothing submits, no ApiUser.
  settings.passive_nodes = false;
  CHECK(icinga_files(plan, settings).count("ibpm-api-user.conf") == 0);
}

TEST_CASE(
    "the events option adds the event path's service to the fabric host, and nothing without it") {
  const sim::FatTree tree = sim::make_fat_tree({.hosts = 16, .radix = 8, .levels = 2});
  const Fabric fabric = delegation::test::fabric_of(tree.topology);
  const MonitoringPlan plan = plan_monitoring(fabric, nullptr, plan_options(false));
  CheckSettings settings = check_settings("");
  const auto events_services = [&](const ConfigFiles& files) {
    std::vector<std::string> found;
    for (const std::string& block : service_blocks(files.at("ibpm-services.cfg")))
      if (has_line(block, "service_description", "ib-events")) found.push_back(block);
    return found;
  };
  CHECK(events_services(nagios_files(plan, settings)).empty());
  CHECK(icinga_files(plan, settings).at("ibpm-settings.conf").find("vars.ib_events") ==
        std::string::npos);
  settings.events = true;
  const auto found = events_services(nagios_files(plan, settings));
  REQUIRE(found.size() == 1);
  CHECK(has_line(found.front(), "host_name", plan.fabric_host));
  CHECK(has_line(found.front(), "check_command", "check_ib_events"));
  CHECK(icinga_files(plan, settings).at("ibpm-settings.conf").find("  vars.ib_events = true\n") !=
        std::string::npos);
}
