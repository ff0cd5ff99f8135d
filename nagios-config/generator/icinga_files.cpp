// SPDX-License-Identifier: MIT
// Icinga 2 objects. Every string goes through icinga_string (quotes, backslashes and '$'
// escaped); object names are already safe (monitoring_plan). Without zones, one folder of files
// for include_recursive; with zones, the folder layout of Icinga 2's config sync (see
// icinga_files in config_files.hpp).
#include <algorithm>
#include <sstream>

#include "config_files.hpp"
#include "config_text.hpp"
#include "delegation/shard_spec.hpp"
#include "fabric/types.hpp"
#include "static_files.hpp"

namespace ibpm::nagios_config {

namespace {

constexpr std::string_view kIcingaHeader =
    "// Written by ibpm-nagios-config from the fabric's topology: run it again after a topology\n"
    "// change rather than editing this file.\n\n";

std::string array(const std::vector<std::string>& items) {
  std::string text = "[ ";
  for (const std::string& item : items) text += (text.size() > 2 ? ", " : "") + icinga_string(item);
  return text + (items.empty() ? "]" : " ]");
}

// "5m", "90s": an interval as Icinga 2 writes it.
std::string duration(unsigned seconds) {
  return seconds % 60 == 0 ? std::to_string(seconds / 60) + "m" : std::to_string(seconds) + "s";
}

// The same shape as the static ibpm-settings.conf, with the generator's values.
std::string settings_file(const MonitoringPlan& plan, const CheckSettings& settings) {
  const unsigned every = settings.check_interval ? settings.check_interval : 300;
  std::ostringstream out;
  out << kIcingaHeader << "const IbpmPluginDir = " << icinga_string(settings.plugin_dir) << "\n"
      << "const IbpmCheckInterval = " << duration(every) << "\n"
      << "const IbpmRetryInterval = " << duration(std::min(every, 60u))
      << "\n"
      // Routes change when the subnet manager reroutes: read them a twelfth as often.
      << "const IbpmRoutesInterval = " << duration(12 * every) << "\n";
  // Passive switch services: their freshness, two intervals and a minute unless told.
  if (settings.passive_nodes)
    out << "const IbpmNodeFreshness = "
        << (settings.freshness ? settings.freshness : 2 * every + 60) << "\n";
  out << "\n"
      << "template Host \"ibpm-settings\" {\n"
      << "  var settings = {\n"
      << "    state_dir = " << icinga_string(settings.state_dir) << "\n";
  if (!settings.node_name_map.empty())
    out << "    node_name_map = " << icinga_string(settings.node_name_map) << "\n";
  if (!settings.ca.empty()) out << "    ca = " << icinga_string(settings.ca) << "\n";
  if (settings.ca_port) out << "    ca_port = " << settings.ca_port << "\n";
  if (!settings.rrdcached.empty())
    out << "    rrdcached = " << icinga_string(settings.rrdcached) << "\n";
  if (!settings.thresholds.empty())
    out << "    thresholds = " << icinga_string(settings.thresholds) << "\n";
  out << "  }\n"
      << "  // A node keeps its own state (sample records, locks) elsewhere with\n"
      << "  // const IbpmStateDir = \"DIR\" in its constants.conf.\n"
      << "  if (globals.contains(\"IbpmStateDir\")) {\n"
      << "    settings.state_dir = IbpmStateDir\n"
      << "  }\n"
      << "  for (command in [ \"ib_topology\", \"ib_port\", \"ib_node\", \"ib_fabric\", \"ib_sm\", "
         "\"ib_routes\" ]) {\n"
      << "    for (key => value in settings) {\n"
      << "      vars[command + \"_\" + key] = value\n"
      << "    }\n"
      << "  }\n";
  if (!settings.baseline.empty())
    out << "  vars.ib_baseline = " << icinga_string(settings.baseline) << "\n";
  if (settings.events) out << "  vars.ib_events = true\n";
  if (settings.passive_nodes) {
    // The sweep submits every switch's result through the API of the endpoint it runs on, as
    // the ApiUser whose only permission is actions/process-check-result (see the README).
    out << "  vars.ib_fabric_icinga2_api = "
        << (settings.icinga2_api.empty() ? "\"https://\" + NodeName + \":5665\""
                                         : icinga_string(settings.icinga2_api))
        << "\n"
        << "  vars.ib_fabric_icinga2_ca = " << icinga_string(settings.icinga2_ca) << "\n";
    if (settings.icinga2_api_user_cn.empty())
      out << "  vars.ib_fabric_icinga2_user = " << icinga_string(settings.icinga2_user) << "\n"
          << "  vars.ib_fabric_icinga2_password_file = "
          << icinga_string(settings.icinga2_password_file) << "\n";
    else
      out << "  vars.ib_fabric_icinga2_cert = " << icinga_string(settings.icinga2_cert) << "\n"
          << "  vars.ib_fabric_icinga2_key = " << icinga_string(settings.icinga2_key) << "\n";
    // Hosts named as here.
    if (plan.fabric_host != "ib-fabric")
      out << "  vars.ib_fabric_nagios_fabric_host = " << icinga_string(plan.fabric_host) << "\n";
    if (plan.cas > 0) out << "  vars.ib_fabric_nagios_cas = true\n";
  }
  out << "}\n";
  return out.str();
}

std::string host_object(const MonitoringPlan& plan, const PlannedHost& host) {
  std::ostringstream out;
  out << "object Host " << icinga_string(host.name) << " {\n"
      << "  import " << (host.is_switch ? "\"ibpm-switch\"" : "\"ibpm-ca\"") << "\n"
      << "  display_name = " << icinga_string(host.display) << "\n"
      << "  address = " << icinga_string(format_guid(host.guid)) << "\n"
      << "  vars.ib_guid = " << icinga_string(format_guid(host.guid)) << "\n"
      << "  vars.ib_description = " << icinga_string(host.description) << "\n";
  if (!host.level.empty()) out << "  vars.ib_level = " << icinga_string(host.level) << "\n";
  // A satellite knows only the objects of its own zone: a parent elsewhere is left out there
  // (the master, which sees every zone, keeps them all).
  std::vector<std::string> parents;
  for (const std::string& parent : host.parents) {
    const auto found = std::find_if(plan.hosts.begin(), plan.hosts.end(),
                                    [&](const PlannedHost& h) { return h.name == parent; });
    if (host.zone == 0 || (found != plan.hosts.end() && found->zone == host.zone))
      parents.push_back(parent);
  }
  if (!parents.empty()) out << "  vars.ib_parents = " << array(parents) << "\n";
  if (!host.groups.empty()) out << "  groups = " << array(host.groups) << "\n";
  out << "}\n";
  return out.str();
}

// The host that stands for the whole fabric (ib-topology, and the full sweep without zones).
std::string fabric_host(const MonitoringPlan& plan) {
  std::ostringstream out;
  out << "object Host " << icinga_string(plan.fabric_host) << " {\n"
      << "  import \"ibpm-fabric\"\n"
      << "  display_name = \"InfiniBand fabric\"\n";
  if (!plan.zones.empty()) {
    out << "  // polled by shards: check_ib_fabric --shard K/N in each satellite zone\n"
        << "  vars.ib_shards = {\n";
    for (const PlannedZone& zone : plan.zones)
      out << "    " << icinga_string(zone.zone) << " = "
          << icinga_string(delegation::to_string({zone.index, unsigned(plan.zones.size())}))
          << "\n";
    out << "  }\n";
  }
  out << "}\n";
  return out.str();
}

// Without zones: every host in one file, checked from where the file is included.
std::string icinga_hosts(const MonitoringPlan& plan) {
  std::ostringstream out;
  out << kIcingaHeader << fabric_host(plan);
  for (const PlannedHost& host : plan.hosts) out << "\n" << host_object(plan, host);
  return out.str();
}

// A satellite zone's objects: its shard's host and the switches its shard polls. The zone's
// endpoints share these checks (Icinga 2 HA); when one dies the other runs them all.
std::string zone_hosts(const MonitoringPlan& plan, const PlannedZone& zone,
                       const CheckSettings& settings) {
  std::ostringstream out;
  out << kIcingaHeader << "// zone " << zone.zone << ": shard " << zone.index << "/"
      << plan.zones.size() << ", " << zone.ports << " ports\n"
      << "object Host " << icinga_string(zone.shard_host) << " {\n"
      << "  import \"ibpm-fabric\"\n"
      << "  display_name = "
      << icinga_string("InfiniBand fabric, shard " +
                       delegation::to_string({zone.index, unsigned(plan.zones.size())}))
      << "\n"
      << "  vars.ib_shard = "
      << icinga_string(delegation::to_string({zone.index, unsigned(plan.zones.size())})) << "\n";
  if (!settings.delegation_file.empty())
    out << "  vars.ib_fabric_delegation = " << icinga_string(settings.delegation_file) << "\n";
  if (settings.nearest) out << "  vars.ib_fabric_assign = \"nearest\"\n";
  out << "}\n";
  for (const PlannedHost& host : plan.hosts)
    if (host.zone == zone.index) out << "\n" << host_object(plan, host);
  return out.str();
}

std::string groups(const MonitoringPlan& plan) {
  std::ostringstream out;
  out << kIcingaHeader;
  for (const PlannedGroup& group : plan.groups)
    out << (&group == &plan.groups.front() ? "" : "\n") << "object HostGroup "
        << icinga_string(group.name) << " {\n  display_name = " << icinga_string(group.alias)
        << "\n}\n";
  return out.str();
}

// The endpoints and zones every node must know (the master and every satellite include this
// file, from their zones.conf): the satellite zones below the master's, and the global zone
// that carries the commands and templates.
std::string zones(const MonitoringPlan& plan, const CheckSettings& settings) {
  std::ostringstream out;
  out << kIcingaHeader
      << "// Include on every node (master and satellites), next to the master's own Endpoint and\n"
      << "// Zone " << icinga_string(settings.parent_zone) << ".\n";
  for (const PlannedZone& zone : plan.zones) {
    out << "\n// shard " << zone.index << "/" << plan.zones.size() << ": " << zone.ports
        << " ports\n";
    for (const std::string& endpoint : zone.endpoints) {
      out << "object Endpoint " << icinga_string(endpoint) << " {\n";
      if (auto it = settings.endpoint_addresses.find(endpoint);
          it != settings.endpoint_addresses.end()) {
        const std::string& address = it->second;
        const std::size_t colon = address.rfind(':');
        const bool has_port = colon != std::string::npos && address.find(':') == colon;
        out << "  host = " << icinga_string(has_port ? address.substr(0, colon) : address) << "\n";
        if (has_port) out << "  port = " << icinga_string(address.substr(colon + 1)) << "\n";
      }
      out << "}\n";
    }
    out << "object Zone " << icinga_string(zone.zone) << " {\n"
        << "  endpoints = " << array(zone.endpoints) << "\n"
        << "  parent = " << icinga_string(settings.parent_zone) << "\n}\n";
  }
  out << "\nobject Zone " << icinga_string(settings.global_zone) << " {\n  global = true\n}\n";
  return out.str();
}

// The sweep's ApiUser: results for the ib-node services only, authenticated by its client
// certificate's CN (no password: nothing secret in a generated file).
std::string api_user(const CheckSettings& settings) {
  std::ostringstream out;
  out << kIcingaHeader << "object ApiUser " << icinga_string(settings.icinga2_user) << " {\n"
      << "  client_cn = " << icinga_string(settings.icinga2_api_user_cn) << "\n"
      << "  permissions = [ {\n"
      << "    permission = \"actions/process-check-result\"\n"
      << "    filter = {{ service.name == \"ib-node\" }}\n"
      << "  } ]\n"
      << "}\n";
  return out.str();
}

// The master includes this file: it reads the zones' objects, and syncs each zone's folder to
// its endpoints (and the global zone's to every node).
std::string master_include() {
  return std::string(kIcingaHeader) +
         "// Include on the master only; the satellites receive their zone's folder from it.\n"
         "include_zones \"ibpm\", \"ibpm-zones.d\"\n";
}

}  // namespace

ConfigFiles icinga_files(const MonitoringPlan& plan, const CheckSettings& settings) {
  const std::string commands =
      std::string(kIcingaHeader) + std::string(static_files::icinga_commands);
  const std::string templates =
      std::string(kIcingaHeader) + std::string(static_files::icinga_templates);
  if (plan.zones.empty()) {
    ConfigFiles files{{"ibpm-settings.conf", settings_file(plan, settings)},
                      {"ibpm-templates.conf", templates},
                      {"ibpm-hosts.conf", icinga_hosts(plan)},
                      {"ibpm-groups.conf", groups(plan)}};
    if (!settings.packaged_commands) files["ibpm-commands.conf"] = commands;
    if (settings.passive_nodes && !settings.icinga2_api_user_cn.empty())
      files["ibpm-api-user.conf"] = api_user(settings);
    return files;
  }
  // Zones: a folder per zone for the master's config sync (include_zones), the global zone's
  // folder for what every node needs.
  const std::string global = "ibpm-zones.d/" + settings.global_zone + "/";
  ConfigFiles files{{"ibpm-zones.conf", zones(plan, settings)},
                    {"ibpm-master.conf", master_include()},
                    {global + "ibpm-settings.conf", settings_file(plan, settings)},
                    {global + "ibpm-templates.conf", templates},
                    {global + "ibpm-groups.conf", groups(plan)}};
  if (!settings.packaged_commands) files[global + "ibpm-commands.conf"] = commands;
  // Every endpoint that sweeps (each satellite) takes the results of its own API.
  if (settings.passive_nodes && !settings.icinga2_api_user_cn.empty())
    files[global + "ibpm-api-user.conf"] = api_user(settings);
  std::ostringstream master;
  master << kIcingaHeader << fabric_host(plan);
  for (const PlannedHost& host : plan.hosts)
    if (host.zone == 0) master << "\n" << host_object(plan, host);
  files["ibpm-zones.d/" + settings.parent_zone + "/ibpm-hosts.conf"] = master.str();
  for (const PlannedZone& zone : plan.zones)
    files["ibpm-zones.d/" + zone.zone + "/ibpm-hosts.conf"] = zone_hosts(plan, zone, settings);
  return files;
}

}  // namespace ibpm::nagios_config
