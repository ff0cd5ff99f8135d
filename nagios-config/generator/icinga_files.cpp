// Icinga 2 objects. Every string goes through icinga_string (quotes, backslashes and '$'
// escaped); object names are already safe (monitoring_plan).
#include <sstream>

#include "config_files.hpp"
#include "config_text.hpp"
#include "delegation/shard_spec.hpp"
#include "fabric/types.hpp"
#include "static_files.hpp"

namespace ibpm::nagios_config {

namespace {

constexpr std::string_view kHeader =
    "// Written by ibpm-nagios-config from the fabric's topology: run it again after a topology\n"
    "// change rather than editing this file.\n\n";

std::string array(const std::vector<std::string>& items) {
  std::string text = "[ ";
  for (const std::string& item : items) text += (text.size() > 2 ? ", " : "") + icinga_string(item);
  return text + (items.empty() ? "]" : " ]");
}

// The same shape as the static ibpm-settings.conf, with the generator's values.
std::string settings_file(const CheckSettings& settings) {
  std::ostringstream out;
  out << kHeader << "const IbpmPluginDir = " << icinga_string(settings.plugin_dir) << "\n\n"
      << "template Host \"ibpm-settings\" {\n"
      << "  var settings = {\n"
      << "    state_dir = " << icinga_string(settings.state_dir) << "\n";
  if (!settings.node_name_map.empty())
    out << "    node_name_map = " << icinga_string(settings.node_name_map) << "\n";
  if (!settings.ca.empty()) out << "    ca = " << icinga_string(settings.ca) << "\n";
  if (settings.ca_port) out << "    ca_port = " << settings.ca_port << "\n";
  if (!settings.rrdcached.empty())
    out << "    rrdcached = " << icinga_string(settings.rrdcached) << "\n";
  out << "  }\n"
      << "  for (command in [ \"ib_topology\", \"ib_port\", \"ib_node\", \"ib_fabric\" ]) {\n"
      << "    for (key => value in settings) {\n"
      << "      vars[command + \"_\" + key] = value\n"
      << "    }\n"
      << "  }\n";
  if (!settings.baseline.empty())
    out << "  vars.ib_baseline = " << icinga_string(settings.baseline) << "\n";
  out << "}\n";
  return out.str();
}

std::string endpoint_of(const MonitoringPlan& plan, unsigned zone) {
  for (const PlannedZone& z : plan.zones)
    if (z.index == zone) return z.endpoint;
  return {};
}

std::string hosts(const MonitoringPlan& plan, const CheckSettings& settings) {
  std::ostringstream out;
  out << kHeader << "object Host " << icinga_string(plan.fabric_host) << " {\n"
      << "  import \"ibpm-fabric\"\n"
      << "  display_name = \"InfiniBand fabric\"\n";
  if (!plan.zones.empty()) {
    // A command endpoint needs the object in a zone: the master's, whose child the satellite is.
    out << "  zone = ZoneName\n"
        << "  // check_ib_fabric --shard K/N on each satellite zone's endpoint\n"
        << "  vars.ib_shards = {\n";
    for (const PlannedZone& zone : plan.zones)
      out << "    " << icinga_string(delegation::to_string({zone.index, unsigned(plan.zones.size())}))
          << " = " << icinga_string(zone.endpoint) << "\n";
    out << "  }\n";
    if (!settings.delegation_file.empty())
      out << "  vars.ib_fabric_delegation = " << icinga_string(settings.delegation_file) << "\n";
    if (settings.nearest) out << "  vars.ib_fabric_assign = \"nearest\"\n";
  }
  out << "}\n";
  for (const PlannedHost& host : plan.hosts) {
    out << "\nobject Host " << icinga_string(host.name) << " {\n"
        << "  import " << (host.is_switch ? "\"ibpm-switch\"" : "\"ibpm-ca\"") << "\n"
        << "  display_name = " << icinga_string(host.display) << "\n"
        << "  address = " << icinga_string(format_guid(host.guid)) << "\n"
        << "  vars.ib_guid = " << icinga_string(format_guid(host.guid)) << "\n"
        << "  vars.ib_description = " << icinga_string(host.description) << "\n";
    if (!host.level.empty()) out << "  vars.ib_level = " << icinga_string(host.level) << "\n";
    if (!host.parents.empty()) out << "  vars.ib_parents = " << array(host.parents) << "\n";
    if (!host.groups.empty()) out << "  groups = " << array(host.groups) << "\n";
    if (const std::string endpoint = endpoint_of(plan, host.zone); !endpoint.empty())
      out << "  // polled from zone " << icinga_string(plan.zones[host.zone - 1].zone) << "\n"
          << "  zone = ZoneName\n"
          << "  command_endpoint = " << icinga_string(endpoint) << "\n"
          << "  vars.ib_command_endpoint = " << icinga_string(endpoint) << "\n";
    out << "}\n";
  }
  return out.str();
}

std::string groups(const MonitoringPlan& plan) {
  std::ostringstream out;
  out << kHeader;
  for (const PlannedGroup& group : plan.groups)
    out << (&group == &plan.groups.front() ? "" : "\n") << "object HostGroup "
        << icinga_string(group.name) << " {\n  display_name = " << icinga_string(group.alias)
        << "\n}\n";
  return out.str();
}

// Satellite zones below the master's zone (ZoneName, as in the stock zones.conf), one endpoint
// each; the satellites connect to the master.
std::string zones(const MonitoringPlan& plan) {
  std::ostringstream out;
  out << kHeader;
  for (const PlannedZone& zone : plan.zones)
    out << (zone.index == 1 ? "" : "\n") << "// shard " << zone.index << "/" << plan.zones.size()
        << ": " << zone.ports << " ports\n"
        << "object Endpoint " << icinga_string(zone.endpoint) << " {\n}\n\n"
        << "object Zone " << icinga_string(zone.zone) << " {\n"
        << "  endpoints = [ " << icinga_string(zone.endpoint) << " ]\n"
        << "  parent = ZoneName\n}\n";
  return out.str();
}

}  // namespace

ConfigFiles icinga_files(const MonitoringPlan& plan, const CheckSettings& settings) {
  ConfigFiles files{
      {"ibpm-settings.conf", settings_file(settings)},
      {"ibpm-commands.conf", std::string(kHeader) + std::string(static_files::icinga_commands)},
      {"ibpm-templates.conf", std::string(kHeader) + std::string(static_files::icinga_templates)},
      {"ibpm-hosts.conf", hosts(plan, settings)},
      {"ibpm-groups.conf", groups(plan)}};
  if (!plan.zones.empty()) files["ibpm-zones.conf"] = zones(plan);
  return files;
}

}  // namespace ibpm::nagios_config
