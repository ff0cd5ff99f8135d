// SPDX-License-Identifier: MIT
// A check's Icinga 2 CheckCommand, written from the check's own option table, so that the
// commands file cannot drift from --help: every visible option becomes an argument named after
// its long name, with --help's description and default; flags use set_if, repeatable options
// repeat_key, required options required. Variables are the command's name, an underscore and the
// option's long name with '-' as '_' (ib_port_mad_timeout), in the style of the Icinga Template
// Library. scripts/icinga2-commands.sh assembles nagios-config/icinga2/ibpm-commands.conf from
// every check; a test compares the two.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "plugin/cli_fwd.hpp"

namespace ibpm::plugin {

struct Icinga2CommandSpec {
  std::string plugin;   // the executable's name: "check_ib_port"
  std::string summary;  // one comment line above the object
  // Defaults taken from the host, as variable suffix and value: {"node", "$ib_guid$"}.
  std::vector<std::pair<std::string, std::string>> host_defaults;
};

// The object's text, ending in a newline. The command's name is the plugin's without "check_".
std::string icinga2_check_command(const CLI::App& app, const Icinga2CommandSpec& spec);

}  // namespace ibpm::plugin
