// SPDX-License-Identifier: MIT
// Nagios 4 and Icinga 2 set up in a private folder, as an operator would include the generated
// folder (cfg_dir= / include_recursive) next to the stock Debian configuration, without touching
// any system folder.
#pragma once

#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "support/process.hpp"
#include "support/temp_dir.hpp"
#include "support/text_files.hpp"

namespace ibpm::nagios_test {

// Processes, folders and files come from the shared test support.
using namespace ibpm::test;

// The user and group this process runs as (names), for nagios_user/ICINGA2_USER: the daemons
// then need no privileges to change to and own nothing they cannot write.
std::string current_user();
std::string current_group();

struct NagiosSetup {
  std::filesystem::path dir;  // log, status.dat, command file, ... live here
  std::string main_cfg;
  std::string status_file;
  std::string command_file;
  std::string log_file;
};

// Writes DIR/nagios.cfg: the stock objects (commands, contacts, time periods, templates), the
// stock resource file, cfg_dir=OBJECTS_DIR, and every file Nagios writes inside DIR. For a
// running daemon: external commands on, status.dat every second, one second per interval unit,
// and no scheduled checks (only the ones the test forces run).
NagiosSetup write_nagios_setup(const std::filesystem::path& dir, const std::string& objects_dir);

// nagios4 -v MAIN.cfg
ProcessRun nagios_verify(const NagiosSetup& setup);

// "Checked 55 hosts." lines of nagios4 -v: {"hosts", 55}, {"host groups", 38}, ...
std::map<std::string, int> nagios_checked_counts(const std::string& output);

// Writes DIR/icinga2.conf (constants, the master's zone and endpoint as the stock zones.conf
// makes them, <itl>, <plugins>, include_recursive OBJECTS_DIR; for a configuration with zones,
// the zone "master", ibpm-zones.conf and ibpm-master.conf) and runs
// `icinga2 daemon -C` on it, with its cache (icinga2.vars, icinga2.debug) in DIR/cache and
// this process's user and group.
ProcessRun icinga_validate(const std::filesystem::path& dir, const std::string& objects_dir);

// "Instantiated 55 Hosts." lines: {"Host", 55}, ... (type names in the singular)
std::map<std::string, int> icinga_instantiated_counts(const std::string& output);

// Log lines of a level ("warning", "critical") without their time stamps.
std::vector<std::string> icinga_log_lines(const std::string& output, const std::string& level);

}  // namespace ibpm::nagios_test
