// SPDX-License-Identifier: MIT
// Nagios 4 object definitions. Values from the fabric go through nagios_value (one line, no
// macros, no comments); object names are already safe (monitoring_plan).
#include <sstream>

#include "config_files.hpp"
#include "config_text.hpp"
#include "fabric/types.hpp"
#include "static_files.hpp"

namespace ibpm::nagios_config {

namespace {

constexpr std::string_view kNagiosHeader =
    "# Written by ibpm-nagios-config from the fabric's topology: run it again after a topology\n"
    "# change rather than editing this file.\n\n";

// A word of a command line: quoted for the shell Nagios may run it through when it holds
// anything but plain path characters, then '$' and ';' escaped for Nagios.
std::string command_word(const std::string& word) {
  const bool plain =
      !word.empty() &&
      word.find_first_not_of(
          "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789/._-:+=@,") ==
          std::string::npos;
  std::string shell = plain ? word : "'";
  if (!plain) {
    for (char c : word) shell += c == '\'' ? std::string("'\\''") : std::string(1, c);
    shell += "'";
  }
  std::string escaped;
  for (char c : shell) {
    if (c == '$')
      escaped += "$$";
    else if (c == ';')
      escaped += "\\;";
    else if (c == '\n' || c == '\r')
      escaped += ' ';
    else
      escaped += c;
  }
  return escaped;
}

std::string join_options(const std::vector<std::pair<std::string, std::string>>& options) {
  std::string text;
  for (const auto& [option, value] : options) {
    if (value.empty()) continue;
    text += (text.empty() ? "" : " ") + option + " " + command_word(value);
  }
  return text;
}

void replace_all(std::string& text, const std::string& from, const std::string& to) {
  for (auto at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size()))
    text.replace(at, from.size(), to);
}

// The static commands with the resource macros ($USER10$..$USER13$) and the fabric host's
// baseline replaced by the settings, so the files need no edit of the resource file.
std::string commands(const CheckSettings& settings) {
  std::string text(static_files::nagios_commands);
  const std::string fabric =
      join_options({{"--node-name-map", settings.node_name_map},
                    {"-C", settings.ca},
                    {"-P", settings.ca_port ? std::to_string(settings.ca_port) : ""}});
  const std::string poll =
      join_options({{"--rrdcached", settings.rrdcached}, {"--thresholds", settings.thresholds}});
  // Said before the macros are replaced, or the comment would name the plugin folder.
  replace_all(text, "$USER10$..$USER13$ are set in\n# ibpm.resource",
              "The plugin folder, state folder and\n# fabric options are set in ibpm.resource");
  replace_all(text, "$USER10$", command_word(settings.plugin_dir));
  replace_all(text, "$USER11$", command_word(settings.state_dir));
  replace_all(text, " $USER12$", fabric.empty() ? "" : " " + fabric);
  replace_all(text, " $USER13$", poll.empty() ? "" : " " + poll);
  // The baseline goes into the command line quoted like the paths above: a host variable is
  // put in as it is, so a path with a space or a quote would split the command.
  if (!settings.baseline.empty())
    replace_all(text, "$_HOSTIB_BASELINE$", command_word(settings.baseline));
  replace_all(text, "the host's _IB_BASELINE", "the generator's --baseline");
  replace_all(text, "ibpm.resource", "the generator's options");
  return std::string(kNagiosHeader) + text;
}

void line(std::ostream& out, std::string_view directive, const std::string& value) {
  if (value.empty()) return;
  out << "    " << directive;
  for (std::size_t i = directive.size(); i < 24; ++i) out << ' ';
  out << value << "\n";
}

std::string joined(const std::vector<std::string>& names) {
  std::string text;
  for (const std::string& n : names) text += (text.empty() ? "" : ",") + n;
  return text;
}

std::string nagios_hosts(const MonitoringPlan& plan, const CheckSettings& settings) {
  std::ostringstream out;
  out << kNagiosHeader;
  if (settings.passive_nodes)
    out << "# The sweep reads every node each interval: the nodes' host checks run on demand only\n"
           "# (check_interval 0), when one of the node's services turns bad, so that the fabric "
           "is\n"
           "# not polled a second time.\n";
  out << "define host {\n";
  line(out, "use", "ibpm-fabric");
  line(out, "host_name", plan.fabric_host);
  line(out, "alias", "InfiniBand fabric");
  line(out, "address", "fabric");
  out << "}\n";
  for (const PlannedHost& host : plan.hosts) {
    const std::string alias = nagios_value(host.display);
    out << "\ndefine host {\n";
    line(out, "use", host.is_switch ? "ibpm-switch" : "ibpm-ca");
    line(out, "host_name", host.name);
    if (settings.passive_nodes) line(out, "check_interval", "0");
    line(out, "alias", alias.empty() ? host.name : alias);
    line(out, "address", format_guid(host.guid));
    line(out, "parents", joined(host.parents));
    line(out, "hostgroups", joined(host.groups));
    line(out, "notes", host.level.empty() ? "" : "fabric level: " + nagios_value(host.level));
    line(out, "_IB_GUID", format_guid(host.guid));
    line(out, "_IB_DESCRIPTION", nagios_value(host.description));
    out << "}\n";
  }
  return out.str();
}

std::string hostgroups(const MonitoringPlan& plan) {
  std::ostringstream out;
  out << kNagiosHeader;
  for (const PlannedGroup& group : plan.groups) {
    const std::string alias = nagios_value(group.alias);
    out << (&group == &plan.groups.front() ? "" : "\n") << "define hostgroup {\n";
    line(out, "hostgroup_name", group.name);
    line(out, "alias", alias.empty() ? group.name : alias);
    out << "}\n";
  }
  return out.str();
}

// `aggregate`: a service whose state sums many ports (the sweep) changes whenever any of them
// does; Nagios' flap detection would then hold back an unrelated fault's notifications, and ibpm
// holds a flapping cable's state itself (docs/operators.md).
void service(std::ostream& out, const std::string& host, const std::string& description,
             const std::string& command, bool aggregate = false) {
  out << "\ndefine service {\n";
  line(out, "use", "ibpm-service");
  line(out, "host_name", host);
  line(out, "service_description", description);
  line(out, "check_command", command);
  if (aggregate) line(out, "flap_detection_enabled", "0");
  out << "}\n";
}

// The up-port balance with every switch's forwarding table read over the fabric at each check
// (a few MADs per 64 LIDs a switch, kept in STATE_DIR/routes.lft for the other tools), hourly:
// routes change when the subnet manager reroutes, not between two sweeps.
void routes_service(std::ostream& out, const std::string& host) {
  out << "\ndefine service {\n";
  line(out, "use", "ibpm-service");
  line(out, "host_name", host);
  line(out, "service_description", "ib-routes");
  line(out, "check_command", "check_ib_routes!--refresh");
  line(out, "check_interval", "60");
  out << "}\n";
}

// The template's 5 minutes between sweeps, twice, and a minute for the reaper and the sweep.
constexpr unsigned kDefaultFreshness = 2 * 300 + 60;

unsigned freshness(const CheckSettings& settings) {
  return settings.freshness ? settings.freshness : kDefaultFreshness;
}

// A switch's service fed by the sweep: no check of its own; when no result came for the
// freshness threshold, Nagios runs the check_command, which says so as UNKNOWN. One attempt: a
// result is a whole sweep interval's judgement (and the next comes an interval later, not at the
// retry interval), so it goes HARD at once, as soon as an active check's three attempts would.
void passive_service(std::ostream& out, const std::string& host, const CheckSettings& settings) {
  const std::string seconds = std::to_string(freshness(settings));
  out << "\ndefine service {\n";
  line(out, "use", "ibpm-service");
  line(out, "host_name", host);
  line(out, "service_description", "ib-node");
  line(out, "check_command", "check_ib_sweep_result!" + seconds);
  line(out, "max_check_attempts", "1");
  line(out, "active_checks_enabled", "0");
  line(out, "passive_checks_enabled", "1");
  line(out, "check_freshness", "1");
  line(out, "freshness_threshold", seconds);
  out << "}\n";
}

// check_ib_fabric's arguments that hand the switches' results to their passive services.
std::string sweep_submits(const MonitoringPlan& plan, const CheckSettings& settings) {
  std::string args = "--nagios-spool " + command_word(settings.check_result_path);
  if (plan.fabric_host != "ib-fabric") args += " --nagios-fabric-host " + plan.fabric_host;
  if (plan.cas > 0) args += " --nagios-cas";
  return args;
}

std::string services(const MonitoringPlan& plan, const CheckSettings& settings) {
  std::ostringstream out;
  out << kNagiosHeader << "# The fabric as a whole.\n";
  service(out, plan.fabric_host, "ib-fabric",
          settings.passive_nodes ? "check_ib_fabric!" + sweep_submits(plan, settings)
                                 : "check_ib_fabric",
          true);
  service(out, plan.fabric_host, "ib-sm", "check_ib_sm");
  if (settings.events) service(out, plan.fabric_host, "ib-events", "check_ib_events");
  routes_service(out, plan.fabric_host);
  if (!settings.baseline.empty())
    service(out, plan.fabric_host, "ib-topology", "check_ib_topology");
  if (settings.passive_nodes) {
    out << "\n# Every cabled port of each switch, from the fabric sweep's results (passive).\n";
    for (const PlannedHost& host : plan.hosts)
      if (host.is_switch) passive_service(out, host.name, settings);
    return out.str();
  }
  out << "\n# Every cabled port of each switch.\n";
  for (const PlannedHost& host : plan.hosts)
    if (host.is_switch) service(out, host.name, "ib-node", "check_ib_node");
  return out.str();
}

}  // namespace

ConfigFiles nagios_files(const MonitoringPlan& plan, const CheckSettings& settings) {
  return {{"ibpm-commands.cfg", commands(settings)},
          {"ibpm-templates.cfg",
           std::string(kNagiosHeader) + std::string(static_files::nagios_templates)},
          {"ibpm-hosts.cfg", nagios_hosts(plan, settings)},
          {"ibpm-hostgroups.cfg", hostgroups(plan)},
          {"ibpm-services.cfg", services(plan, settings)}};
}

}  // namespace ibpm::nagios_config
