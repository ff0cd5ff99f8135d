// SPDX-License-Identifier: MIT
// ibpm-nagios-config: turns a fabric (live discovery or --cache FILE) into Nagios 4 or Icinga 2
// object files in a folder of their own: a host per switch (and per host CA with --cas), its
// parents from the fabric levels, host groups per level and per leaf, the ibpm services, and
// with --zones the satellite zones that split the polling as check_ib_fabric --shard does.
#include <unistd.h>

#include <filesystem>
#include <iostream>
#include <map>
#include <optional>
#include <vector>

#include "config_files.hpp"
#include "fabric/node_name_map.hpp"
#include "layout/state_layout.hpp"
#include "monitoring_plan.hpp"
#include "output_dir.hpp"
#include "plugin/cli.hpp"
#include "plugin/options.hpp"
#include "products/icinga2_options.hpp"
#include "thresholds/rate_thresholds.hpp"
#include "topology/fabric_topology.hpp"
#include "topology/topology.hpp"

namespace {

struct Options {
  ibpm::plugin::FabricOptions fabric;
  std::string format;
  std::string output;
  std::string plugin_dir;
  std::string baseline;
  bool no_baseline = false;
  std::string rrdcached;
  std::optional<std::string> thresholds;  // unset: the installed file when it exists
  std::string assign = "even";
  unsigned check_interval = 0;
  std::string node_services = "active";
  std::string check_result_path = "/var/lib/nagios4/spool/checkresults";
  unsigned freshness = 0;
  ibpm::nagios_config::CheckSettings icinga2;  // its icinga2_* fields: where the sweep submits
  bool packaged_commands = false;
  bool events = false;
  std::string parent_zone = "master";
  std::string global_zone = "ibpm-global";
  std::vector<std::string> endpoint_addresses;
  ibpm::nagios_config::PlanOptions plan;
};

// "NAME=HOST[:PORT]" of --endpoint-address, each NAME an endpoint of the plan.
std::map<std::string, std::string> endpoint_addresses(
    const std::vector<std::string>& given, const ibpm::nagios_config::MonitoringPlan& plan) {
  std::map<std::string, std::string> addresses;
  for (const std::string& item : given) {
    const std::size_t eq = item.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == item.size())
      throw std::runtime_error("--endpoint-address " + item + ": not ENDPOINT=HOST[:PORT]");
    const std::string name = item.substr(0, eq);
    bool known = false;
    for (const auto& zone : plan.zones)
      for (const std::string& endpoint : zone.endpoints) known = known || endpoint == name;
    if (!known) throw std::runtime_error("--endpoint-address " + item + ": no endpoint " + name);
    addresses[name] = item.substr(eq + 1);
  }
  return addresses;
}

// Where the checks are: next to this command in the build tree (bin/), else the plugin folder
// of the install this command belongs to (IBPM_INSTALLED_PLUGIN_DIR, from the build).
std::string default_plugin_dir() {
  std::error_code ec;
  const auto self = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (!ec && std::filesystem::exists(self.parent_path() / "check_ib_fabric", ec))
    return self.parent_path().string();
  return IBPM_INSTALLED_PLUGIN_DIR;
}

// The thresholds file the polling checks read: the one given ("" for none), else the installed
// conffile (IBPM_INSTALLED_THRESHOLDS, from the build) when it is there. Read here once, so a
// typing error in it stops the generator, not every check Nagios runs.
std::string thresholds_file(const std::optional<std::string>& given) {
  std::error_code ec;
  const std::string file = given ? *given
                           : std::filesystem::exists(IBPM_INSTALLED_THRESHOLDS, ec)
                               ? IBPM_INSTALLED_THRESHOLDS
                               : "";
  if (file.empty()) return file;
  try {
    ibpm::thresholds::RateThresholds::defaults().load_file(file);
  } catch (const std::exception& e) {
    throw std::runtime_error(std::string("--thresholds: ") + e.what() +
                             " (--thresholds \"\" for none)");
  }
  return file;
}

void run(Options options) {
  if (options.format == "nagios" && options.plan.zones.count > 0)
    throw std::runtime_error("--zones: satellite zones are an Icinga 2 feature (--format icinga2)");
  if (options.plan.zones.count == 0 &&
      (!options.plan.zones.delegation_file.empty() || options.assign != "even" ||
       options.plan.zones.endpoints != 1 || !options.endpoint_addresses.empty()))
    throw std::runtime_error(
        "--delegation, --assign, --endpoints-per-zone and --endpoint-address go with --zones");
  // Zone names become folder names of the config sync.
  for (const std::string* name :
       {&options.parent_zone, &options.global_zone, &options.plan.zones.zone_prefix})
    if (name->empty() || name->find('/') != std::string::npos || name->starts_with("."))
      throw std::runtime_error("zone name \"" + *name + "\": empty, or a '/' or leading '.'");
  if (options.format == "nagios" && options.check_interval)
    throw std::runtime_error(
        "--check-interval: Icinga 2 only; Nagios takes its intervals from ibpm-templates.cfg "
        "(check_interval, retry_interval)");
  if (options.format == "nagios" && options.packaged_commands)
    throw std::runtime_error(
        "--packaged-commands: for Icinga 2; with Nagios use either the packaged files or these");
  if (!options.icinga2.icinga2_api_user_cn.empty() &&
      (options.format != "icinga2" || options.node_services != "passive"))
    throw std::runtime_error(
        "--icinga2-api-user-cn: for the sweep's results (--format icinga2 --node-services "
        "passive)");
  options.plan.zones.nearest = options.assign == "nearest";
  const std::string thresholds = thresholds_file(options.thresholds);

  const ibpm::topology::Topology topology =
      ibpm::topology::topology_source(options.fabric)
          .load(ibpm::topology::TopologyRefresh::cache_or_discover);
  const auto names = ibpm::NodeNameMap::load_if_named(options.fabric.node_name_map);
  const auto plan = ibpm::nagios_config::plan_monitoring(topology.fabric, names ? &*names : nullptr,
                                                         options.plan);
  if (plan.switches == 0) throw std::runtime_error(topology.origin + ": no switches");

  ibpm::nagios_config::CheckSettings settings;
  settings.plugin_dir = options.plugin_dir.empty() ? default_plugin_dir() : options.plugin_dir;
  settings.state_dir = options.fabric.state_dir;
  settings.node_name_map = options.fabric.node_name_map;
  settings.ca = options.fabric.ca;
  settings.ca_port = options.fabric.port;
  settings.rrdcached = options.rrdcached;
  settings.thresholds = thresholds;
  settings.packaged_commands = options.packaged_commands;
  settings.events = options.events;
  if (!options.no_baseline)
    settings.baseline = options.baseline.empty()
                            ? ibpm::layout::StateLayout(settings.state_dir).baseline()
                            : options.baseline;
  settings.delegation_file = options.plan.zones.delegation_file;
  settings.nearest = options.plan.zones.nearest;
  settings.check_interval = options.check_interval;
  settings.passive_nodes = options.node_services == "passive";
  settings.check_result_path = options.check_result_path;
  settings.freshness = options.freshness;
  settings.icinga2_api = options.icinga2.icinga2_api;
  settings.icinga2_ca = options.icinga2.icinga2_ca;
  settings.icinga2_user = options.icinga2.icinga2_user;
  settings.icinga2_password_file = options.icinga2.icinga2_password_file;
  settings.icinga2_api_user_cn = options.icinga2.icinga2_api_user_cn;
  settings.icinga2_cert = options.icinga2.icinga2_cert;
  settings.icinga2_key = options.icinga2.icinga2_key;
  settings.parent_zone = options.parent_zone;
  settings.global_zone = options.global_zone;
  settings.endpoint_addresses = endpoint_addresses(options.endpoint_addresses, plan);

  ibpm::nagios_config::write_output_dir(options.output,
                                        options.format == "nagios"
                                            ? ibpm::nagios_config::nagios_files(plan, settings)
                                            : ibpm::nagios_config::icinga_files(plan, settings));
  std::cout << options.output << ": " << plan.switches << " switches, " << plan.cas << " CAs, "
            << plan.groups.size() << " host groups";
  if (!plan.zones.empty()) {
    std::cout << ", " << plan.zones.size() << " zones (ports:";
    for (const auto& zone : plan.zones) std::cout << " " << zone.ports;
    std::cout << ")";
  }
  std::cout << "\n";
}

}  // namespace

int main(int argc, char** argv) {
  Options options;
  return ibpm::plugin::run_tool(
      argc, argv,
      {.name = "ibpm-nagios-config",
       .description =
           "Writes Nagios 4 or Icinga 2 configuration for an InfiniBand fabric (live "
           "discovery or --cache FILE) into a folder of its own: a host per switch (and per "
           "host CA with --cas) with its parents one level closer to the core, host groups "
           "per fabric level and per leaf, a check_ib_node service per switch (ib-node) and "
           "the fabric host's services: ib-fabric (check_ib_fabric), ib-sm (check_ib_sm), "
           "ib-routes (check_ib_routes --refresh, hourly), ib-topology (check_ib_topology, "
           "unless --no-baseline) and with --events ib-events (check_ib_events). The polling "
           "checks get --thresholds. Running it again "
           "after a topology change changes only the objects of what changed.",
       .add_options =
           [&](CLI::App& app) {
             ibpm::plugin::add_fabric_options(app, options.fabric);
             ibpm::plugin::add_option(app, "--format", options.format,
                                      "nagios (Nagios 4 object files for cfg_dir=) or "
                                      "icinga2 (files for include_recursive)")
                 .required()
                 .one_of({"nagios", "icinga2"});
             ibpm::plugin::add_output_option(
                 app, options.output,
                 "Folder to write (replaced whole; it may hold only files this command wrote)")
                 .required();
             ibpm::plugin::add_flag(app, "--cas", options.plan.cas,
                                    "A host per host CA too (parents: its leaf switches)");
             ibpm::plugin::add_option(app, "--fabric-host", options.plan.fabric_host,
                                      "Name of the host that stands for the whole fabric")
                 .show_default();
             ibpm::plugin::add_option(app, "--plugin-dir", options.plugin_dir,
                                      "Where the checks are "
                                      "installed (default: this "
                                      "command's folder when they "
                                      "are there, else " IBPM_INSTALLED_PLUGIN_DIR ")");
             ibpm::plugin::add_baseline_option(
                 app, options.baseline,
                 "check_ib_topology's baseline (default: STATE_DIR/baseline.cache)");
             ibpm::plugin::add_flag(app, "--no-baseline", options.no_baseline,
                                    "No check_ib_topology service");
             ibpm::plugin::add_rrdcached_option(
                 app, options.rrdcached,
                 "the generated polling checks write their RRD files through it (e.g. "
                 "unix:/run/rrdcached.sock)");
             ibpm::plugin::add_option_function(
                 app, "--thresholds", [&](const std::string& file) { options.thresholds = file; },
                 "The thresholds file of every generated polling check (check_ib_port, "
                 "check_ib_node, check_ib_fabric: --thresholds FILE), so that the checks Nagios "
                 "or Icinga runs and the packaged sweep read the same one. "
                 "Default: " IBPM_INSTALLED_THRESHOLDS
                 " when it exists where this command runs (installed "
                 "with every line commented out: the built-in thresholds until edited); \"\": "
                 "none, the checks' "
                 "built-in thresholds")
                 .type_name("FILE");
             ibpm::plugin::add_flag(
                 app, "--packaged-commands", options.packaged_commands,
                 "Icinga 2: the CheckCommands come from the installed package (include "
                 "<plugins-contrib>), so ibpm-commands.conf is not written");
             ibpm::plugin::add_flag(
                 app, "--events", options.events,
                 "The site runs ibpm-events (the subnet manager's traps re-poll a switch at "
                 "once): the fabric host gets an ib-events service, check_ib_events, CRITICAL "
                 "when traps cannot arrive (run it where the listener runs)");
             ibpm::plugin::add_option(
                 app, "--check-interval", options.check_interval,
                 "Icinga 2 only: seconds between checks (default 300; retries every minute, or "
                 "as often when shorter). Nagios takes its intervals from ibpm-templates.cfg "
                 "(check_interval, retry_interval, in minutes)")
                 .in_range(1u, 86400u);
             ibpm::plugin::add_option(
                 app, "--node-services", options.node_services,
                 "active: each switch's ib-node service runs check_ib_node (small fabrics); "
                 "passive: the fabric sweep submits every switch's result (check_ib_fabric "
                 "--nagios-spool or --icinga2-api) and a switch without a fresh one turns UNKNOWN")
                 .one_of({"active", "passive"})
                 .show_default();
             ibpm::plugin::add_option(
                 app, "--check-result-path", options.check_result_path,
                 "With --node-services passive and --format nagios: Nagios's check_result_path "
                 "(nagios.cfg), where the sweep leaves the results")
                 .show_default();
             const std::string submit =
                 "Icinga 2 passive results (--format icinga2 --node-services passive)";
             ibpm::products::add_icinga2_options(
                 app,
                 {options.icinga2.icinga2_api, options.icinga2.icinga2_ca,
                  options.icinga2.icinga2_user, options.icinga2.icinga2_password_file,
                  options.icinga2.icinga2_cert, options.icinga2.icinga2_key},
                 ibpm::products::Icinga2OptionsFor::configuring, submit);
             ibpm::plugin::add_option(
                 app, "--icinga2-api-user-cn", options.icinga2.icinga2_api_user_cn,
                 "Also write the ApiUser (ibpm-api-user.conf: --icinga2-user's name, permission "
                 "actions/process-check-result on the ib-node services only) authenticated by "
                 "the sweep's client certificate with this CN; the sweep then presents "
                 "--icinga2-cert and --icinga2-key instead of a password")
                 .type_name("CN")
                 .group(submit);
             ibpm::plugin::add_option(
                 app, "--freshness", options.freshness,
                 "With --node-services passive: seconds without a result before a switch's "
                 "service turns UNKNOWN (default: two check intervals and a minute, 660 with the "
                 "5-minute interval)")
                 .in_range(1u, 86400u);
             const std::string zones = "Icinga 2 zones";
             ibpm::plugin::add_option(
                 app, "--zones", options.plan.zones.count,
                 "Split the polling among N satellite zones: one check_ib_fabric --shard K/N each, "
                 "and each switch's checks in the zone whose shard holds its ports")
                 .in_range(0u, 4096u)
                 .group(zones);
             ibpm::plugin::add_option(app, "--zone-prefix", options.plan.zones.zone_prefix,
                                      "Zone names: PREFIX1..PREFIXN")
                 .show_default()
                 .group(zones);
             ibpm::plugin::add_option(app, "--satellite-prefix", options.plan.zones.endpoint_prefix,
                                      "Satellite endpoint names: PREFIX1..PREFIXN")
                 .show_default()
                 .group(zones);
             ibpm::plugin::add_option(
                 app, "--endpoints-per-zone", options.plan.zones.endpoints,
                 "1, or 2 for HA: endpoints PREFIXKa and PREFIXKb share zone K's checks, and "
                 "either goes on alone when the other dies")
                 .in_range(1u, 2u)
                 .show_default()
                 .group(zones);
             ibpm::plugin::add_option(
                 app, "--endpoint-address", options.endpoint_addresses,
                 "ENDPOINT=HOST[:PORT] where a satellite endpoint listens (repeat per endpoint); "
                 "its peers and the master connect to it there")
                 .group(zones);
             ibpm::plugin::add_option(app, "--parent-zone", options.parent_zone,
                                      "The master's zone, parent of the satellite zones")
                 .show_default()
                 .group(zones);
             ibpm::plugin::add_option(
                 app, "--global-zone", options.global_zone,
                 "Global zone that carries the commands and templates to every node")
                 .show_default()
                 .group(zones);
             ibpm::plugin::add_delegation_option(
                 app, options.plan.zones.delegation_file,
                 "Delegation file for the split, as check_ib_fabric --delegation")
                 .group(zones);
             ibpm::plugin::add_assign_option(
                 app, [&](const std::string& mode) { options.assign = mode; },
                 "How unpinned nodes are split: even or nearest")
                 .group(zones);
           },
       .run = [&] { run(options); }});
}
