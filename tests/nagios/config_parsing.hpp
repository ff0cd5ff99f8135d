// SPDX-License-Identifier: MIT
// Reading what the tests check: Nagios object definitions and status.dat, Icinga 2
// CheckCommands, the long options a check's --help lists, and the options on a command line.
#pragma once

#include <map>
#include <set>
#include <string>
#include <vector>

namespace ibpm::nagios_test {

// One "define TYPE { ... }" of a Nagios object file, or one "TYPE { ... }" block of status.dat.
struct NagiosObject {
  std::string type;
  std::map<std::string, std::string> directives;
  std::string get(const std::string& name) const {
    auto it = directives.find(name);
    return it == directives.end() ? std::string() : it->second;
  }
};

// Object files: comments ('#', ';' at the start; an unescaped ';' later) removed, "\;" kept as ';'.
std::vector<NagiosObject> parse_nagios_objects(const std::string& text);
// status.dat: "TYPE {" blocks of "key=value" lines.
std::vector<NagiosObject> parse_status_dat(const std::string& text);

// "$USERn$=value" lines of a resource file.
std::map<std::string, std::string> parse_resource_file(const std::string& text);

// The command lines that run a check: every command with the resource macros and, for each
// service or host using it through check_command "NAME!ARG1!ARG2", its $ARGn$ filled in
// ($ARGn$ left out for the bare command).
std::vector<std::string> nagios_command_lines(const std::vector<NagiosObject>& objects,
                                              const std::map<std::string, std::string>& macros);

// The options of a check on a command line: "check_ib_node" -> {"--node", "-P", ...}, for every
// word naming a check_ib_* program (a path ending in it), the option words after it. Words are
// split as the shell would (single and double quotes).
std::map<std::string, std::set<std::string>> check_options(const std::string& command_line);

// The words the shell makes of a Nagios command line ("$$" read as '$' first).
std::vector<std::string> command_words(const std::string& command_line);

struct IcingaArgument {
  std::string key;     // "--node"
  std::string value;   // "$ib_node_node$", empty for set_if flags without a value
  std::string set_if;  // "$ib_fabric_nagios_cas$": the flag is given when this is true
};

struct IcingaCommand {
  std::string name;     // "ib_node"
  std::string program;  // "check_ib_node" (the check_ib_* in `command`)
  std::vector<IcingaArgument> arguments;
  std::map<std::string, std::string> vars;  // vars.NAME = VALUE inside the object
};

// Every `object CheckCommand "NAME" { ... }` of Icinga 2 configuration text.
std::vector<IcingaCommand> parse_icinga_commands(const std::string& text);

// Every "vars.NAME =" (or vars["NAME"] =) assignment of the text, objects and templates alike.
std::set<std::string> icinga_assigned_vars(const std::string& text);

// A check's options from its --help: one entry per option, each with all its names
// ({"-t", "--timeout"}); lines are CLI11's ("  -t,--timeout SECONDS ...").
std::vector<std::set<std::string>> help_options(const std::string& help);

}  // namespace ibpm::nagios_test
