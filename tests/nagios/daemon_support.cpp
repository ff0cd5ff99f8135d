// SPDX-License-Identifier: MIT

#include "daemon_support.hpp"

#include <grp.h>
#include <pwd.h>
#include <unistd.h>

#include <regex>
#include <sstream>
#include <stdexcept>

namespace ibpm::nagios_test {

namespace fs = std::filesystem;

std::string current_user() {
  const passwd* entry = getpwuid(geteuid());
  if (!entry) throw std::runtime_error("no user name for uid " + std::to_string(geteuid()));
  return entry->pw_name;
}

std::string current_group() {
  const group* entry = getgrgid(getegid());
  if (!entry) throw std::runtime_error("no group name for gid " + std::to_string(getegid()));
  return entry->gr_name;
}

NagiosSetup write_nagios_setup(const fs::path& dir, const std::string& objects_dir) {
  NagiosSetup setup;
  setup.dir = dir;
  setup.main_cfg = (dir / "nagios.cfg").string();
  setup.status_file = (dir / "status.dat").string();
  setup.command_file = (dir / "nagios.cmd").string();
  setup.log_file = (dir / "nagios.log").string();
  fs::create_directories(dir / "checkresults");
  const std::string d = dir.string();
  std::ostringstream cfg;
  cfg << "log_file=" << setup.log_file << "\n"
      << "cfg_file=/etc/nagios4/objects/commands.cfg\n"
      << "cfg_file=/etc/nagios4/objects/contacts.cfg\n"
      << "cfg_file=/etc/nagios4/objects/timeperiods.cfg\n"
      << "cfg_file=/etc/nagios4/objects/templates.cfg\n"
      << "cfg_dir=" << objects_dir << "\n"
      << "resource_file=/etc/nagios4/resource.cfg\n"
      << "object_cache_file=" << d << "/objects.cache\n"
      << "precached_object_file=" << d << "/objects.precache\n"
      << "status_file=" << setup.status_file << "\n"
      << "status_update_interval=1\n"
      << "state_retention_file=" << d << "/retention.dat\n"
      << "retain_state_information=0\n"
      << "temp_file=" << d << "/nagios.tmp\n"
      << "temp_path=" << d << "\n"
      << "lock_file=" << d << "/nagios.lock\n"
      << "check_result_path=" << d << "/checkresults\n"
      << "query_socket=" << d << "/nagios.qh\n"
      << "debug_file=" << d << "/nagios.debug\n"
      << "command_file=" << setup.command_file << "\n"
      << "check_external_commands=1\n"
      << "nagios_user=" << current_user() << "\n"
      << "nagios_group=" << current_group() << "\n"
      << "interval_length=1\n"
      // Only forced checks run: a scheduled one could take the sample a forced one should see.
      << "execute_service_checks=0\n"
      << "execute_host_checks=0\n"
      << "enable_notifications=0\n"
      << "enable_flap_detection=0\n"
      << "use_syslog=0\n"
      // As in the stock nagios.cfg (the compiled-in defaults are empty).
      << "illegal_object_name_chars=`~!$%^&*|'\"<>?,()=\n"
      << "illegal_macro_output_chars=`~$&|'\"<>\n";
  write_text(setup.main_cfg, cfg.str());
  return setup;
}

ProcessRun nagios_verify(const NagiosSetup& setup) {
  return run_process({find_program("nagios4"), "-v", setup.main_cfg}, {{}, Stderr::merged});
}

std::map<std::string, int> nagios_checked_counts(const std::string& output) {
  static const std::regex line(R"(Checked (\d+) ([a-z ]+)\.)");
  std::map<std::string, int> counts;
  // The first block counts objects; the circular path check repeats some of them.
  for (auto it = std::sregex_iterator(output.begin(), output.end(), line);
       it != std::sregex_iterator(); ++it)
    counts.emplace((*it)[2].str(), std::stoi((*it)[1].str()));
  return counts;
}

ProcessRun icinga_validate(const fs::path& dir, const std::string& objects_dir) {
  fs::create_directories(dir / "cache");
  const std::string conf = (dir / "icinga2.conf").string();
  // With zones, the master as operators/operators.md sets it up: its zone "master", the
  // generated zones, and the zones' folders through ibpm-master.conf.
  const bool zoned = fs::exists(fs::path(objects_dir) / "ibpm-master.conf");
  write_text(conf,
             "include \"/etc/icinga2/constants.conf\"\n"
             "object Endpoint NodeName {\n}\n" +
                 std::string(zoned ? "object Zone \"master\" {\n  endpoints = [ NodeName ]\n}\n"
                                   : "object Zone ZoneName {\n  endpoints = [ NodeName ]\n}\n") +
                 "include <itl>\n"
                 "include <plugins>\n" +
                 (zoned ? "include \"" + objects_dir + "/ibpm-zones.conf\"\ninclude \"" +
                              objects_dir + "/ibpm-master.conf\"\n"
                        : "include_recursive \"" + objects_dir + "\"\n"));
  return run_process({find_program("icinga2"), "daemon", "-C", "-c", conf, "-D",
                      "Configuration.CacheDir=" + (dir / "cache").string()},
                     {.env = {"ICINGA2_USER=" + current_user(), "ICINGA2_GROUP=" + current_group()},
                      .stderr_to = Stderr::merged});
}

std::map<std::string, int> icinga_instantiated_counts(const std::string& output) {
  static const std::regex line(R"(Instantiated (\d+) (\w+)\.)");
  std::map<std::string, int> counts;
  for (auto it = std::sregex_iterator(output.begin(), output.end(), line);
       it != std::sregex_iterator(); ++it) {
    // One type name whatever the number: "1 Zone", "3 Zones", "36 Dependencies".
    std::string type = (*it)[2].str();
    const int n = std::stoi((*it)[1].str());
    if (n != 1 && type.ends_with("ies"))
      type = type.substr(0, type.size() - 3) + "y";
    else if (n != 1 && type.ends_with("s"))
      type.pop_back();
    counts[type] = n;
  }
  return counts;
}

std::vector<std::string> icinga_log_lines(const std::string& output, const std::string& level) {
  std::vector<std::string> lines;
  std::istringstream in(output);
  for (std::string line; std::getline(in, line);) {
    const auto at = line.find(" " + level + "/");
    if (at != std::string::npos) lines.push_back(line.substr(at + 1));
  }
  return lines;
}

}  // namespace ibpm::nagios_test
