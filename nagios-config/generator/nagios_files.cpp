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

constexpr std::string_view kHeader =
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
  const std::string poll = join_options({{"--rrdcached", settings.rrdcached}});
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
  return std::string(kHeader) + text;
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

std::string hosts(const MonitoringPlan& plan) {
  std::ostringstream out;
  out << kHeader;
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
  out << kHeader;
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

std::string services(const MonitoringPlan& plan, const CheckSettings& settings) {
  std::ostringstream out;
  out << kHeader << "# The fabric as a whole.\n";
  service(out, plan.fabric_host, "ib-fabric", "check_ib_fabric", true);
  service(out, plan.fabric_host, "ib-sm", "check_ib_sm");
  if (!settings.baseline.empty())
    service(out, plan.fabric_host, "ib-topology", "check_ib_topology");
  out << "\n# Every cabled port of each switch.\n";
  for (const PlannedHost& host : plan.hosts)
    if (host.is_switch) service(out, host.name, "ib-node", "check_ib_node");
  return out.str();
}

}  // namespace

ConfigFiles nagios_files(const MonitoringPlan& plan, const CheckSettings& settings) {
  return {
      {"ibpm-commands.cfg", commands(settings)},
      {"ibpm-templates.cfg", std::string(kHeader) + std::string(static_files::nagios_templates)},
      {"ibpm-hosts.cfg", hosts(plan)},
      {"ibpm-hostgroups.cfg", hostgroups(plan)},
      {"ibpm-services.cfg", services(plan, settings)}};
}

}  // namespace ibpm::nagios_config
