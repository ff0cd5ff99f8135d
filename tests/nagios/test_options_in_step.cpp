// SPDX-License-Identifier: MIT
// The Nagios and Icinga 2 configuration and the checks stay in step: every option a
// configuration passes to a check is one its --help lists, and every option a check has is an
// argument of its Icinga 2 CheckCommand. A renamed or removed option fails here, not at 3 a.m.
#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <map>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include "config_parsing.hpp"
#include "generator_run.hpp"
#include "support/process.hpp"
#include "support/temp_dir.hpp"
#include "support/text_files.hpp"

using namespace ibpm::nagios_test;
using namespace ibpm::test;

namespace {

const std::vector<std::string> kChecks{"check_ib_topology", "check_ib_port", "check_ib_node",
                                       "check_ib_fabric",   "check_ib_sm",   "check_ib_routes",
                                       "check_ib_events"};
// The checks that read a topology (--cache and the rest of the fabric options).
const std::vector<std::string> kTopologyChecks{
    "check_ib_topology", "check_ib_port", "check_ib_node", "check_ib_fabric", "check_ib_routes"};

// Every check's options, from its own --help.
const std::map<std::string, std::vector<std::set<std::string>>>& check_help() {
  static const auto options = [] {
    std::map<std::string, std::vector<std::set<std::string>>> result;
    for (const std::string& check : kChecks) {
      const ProcessRun help = run_process({bin(check), "--help"}, {{}, Stderr::merged});
      if (help.exit_code != 3) throw std::runtime_error(check + " --help did not exit with 3");
      result[check] = help_options(help.out);
    }
    return result;
  }();
  return options;
}

std::set<std::string> option_names(const std::string& check) {
  std::set<std::string> names;
  for (const auto& option : check_help().at(check)) names.insert(option.begin(), option.end());
  return names;
}

std::string source_file(const std::string& relative) {
  return read_text(std::string(IBPM_SOURCE_DIR) + "/" + relative);
}

std::string joined(const std::set<std::string>& items) {
  std::string text;
  for (const std::string& item : items) text += (text.empty() ? "" : " ") + item;
  return text;
}

// Every option on the command lines, by check, must be one the check lists.
void require_known_options(const std::vector<std::string>& command_lines,
                           const std::set<std::string>& checks_expected) {
  std::set<std::string> checks_seen;
  for (const std::string& line : command_lines) {
    for (const auto& [check, options] : check_options(line)) {
      INFO(line);
      REQUIRE(check_help().contains(check));
      checks_seen.insert(check);
      const std::set<std::string> known = option_names(check);
      for (const std::string& option : options) {
        INFO(check << " has no option " << option);
        CHECK(known.contains(option));
      }
    }
  }
  CHECK(checks_seen == checks_expected);  // nothing silently skipped
}

// A small fat tree as an ibnetdiscover dump, written by the simulator's generator.
std::string small_dump(const TempDir& dir) {
  return generated_fat_tree(dir, "fabric.ibnetdiscover", 36, 12);
}

// A path the command line has to quote.
std::string baseline_path(const TempDir& dir) { return dir / "base line's $HOME.cache"; }

std::map<std::string, std::string> generate(const TempDir& dir, const std::string& format,
                                            const std::vector<std::string>& more) {
  const std::string out = dir / ("out-" + format);
  write_text(dir / "names.map", "# no names\n");
  write_text(dir / "thresholds.conf", "symbol_errors 5/h 50/h\n");
  std::vector<std::string> options{"--node-name-map",
                                   dir / "names.map",
                                   "-C",
                                   "mlx5_0",
                                   "-P",
                                   "1",
                                   "--rrdcached",
                                   "unix:/run/rrdcached.sock",
                                   "--baseline",
                                   baseline_path(dir),
                                   "--thresholds",
                                   dir / "thresholds.conf",
                                   "--cas"};
  options.insert(options.end(), more.begin(), more.end());
  run_config_generator(dir, format, out, small_dump(dir), options);
  std::map<std::string, std::string> files;
  // With zones the files are in one folder per zone: named by their path in the output.
  for (const auto& entry : std::filesystem::recursive_directory_iterator(out))
    if (entry.is_regular_file())
      files[std::filesystem::relative(entry.path(), out).string()] = read_text(entry.path());
  return files;
}

std::vector<IcingaCommand> icinga_commands(const std::vector<std::string>& texts) {
  std::vector<IcingaCommand> commands;
  for (const std::string& text : texts)
    for (IcingaCommand& command : parse_icinga_commands(text)) commands.push_back(command);
  return commands;
}

void require_known_arguments(const std::vector<IcingaCommand>& commands) {
  std::set<std::string> programs;
  for (const IcingaCommand& command : commands) {
    INFO("CheckCommand " << command.name);
    REQUIRE(check_help().contains(command.program));
    programs.insert(command.program);
    const std::set<std::string> known = option_names(command.program);
    for (const IcingaArgument& argument : command.arguments) {
      INFO(command.program << " has no option " << argument.key);
      CHECK(known.contains(argument.key));
    }
  }
  CHECK(programs == std::set<std::string>(kChecks.begin(), kChecks.end()));
}

}  // namespace

TEST_CASE("The static Nagios commands pass each check only options it has") {
  std::vector<NagiosObject> objects;
  for (const char* file : {"ibpm-commands.cfg", "ibpm-templates.cfg", "ibpm-example.cfg"})
    for (auto& object :
         parse_nagios_objects(source_file(std::string("nagios-config/nagios/") + file)))
      objects.push_back(object);
  auto macros = parse_resource_file(source_file("nagios-config/nagios/ibpm.resource"));
  REQUIRE(macros.contains("$USER12$"));
  REQUIRE(macros.contains("$USER13$"));
  macros["$USER1$"] = "/usr/lib/nagios/plugins";
  // The resource file's example values and the documented alternatives of $USER12$/$USER13$.
  require_known_options(nagios_command_lines(objects, macros), {kChecks.begin(), kChecks.end()});
  // The packaged thresholds file reaches every polling check, as the packaged sweep reads it.
  for (const std::string& line : nagios_command_lines(objects, macros)) {
    const auto checks = check_options(line);
    for (const char* polling : {"check_ib_port", "check_ib_node", "check_ib_fabric"})
      if (checks.contains(polling) && !checks.at(polling).contains("--no-default-thresholds")) {
        INFO(line);
        CHECK(line.find(" --thresholds /etc/ibpm/thresholds.conf") != std::string::npos);
      }
  }
  macros["$USER12$"] = "--node-name-map /etc/names.map -C mlx5_0 -P 1";
  macros["$USER13$"] = "--rrdcached unix:/run/rrdcached.sock --rrd-step 60";
  require_known_options(nagios_command_lines(objects, macros), {kChecks.begin(), kChecks.end()});
}

TEST_CASE("The generated Nagios configuration passes each check only options it has") {
  TempDir dir("nagios-options");
  const auto files = generate(dir, "nagios", {});
  std::vector<NagiosObject> objects;
  for (const auto& [name, text] : files)
    for (auto& object : parse_nagios_objects(text)) objects.push_back(object);
  const auto lines = nagios_command_lines(objects, {{"$USER1$", "/usr/lib/nagios/plugins"}});
  // Every setting given to the generator reached the command lines.
  std::string all;
  for (const std::string& line : lines) all += line + "\n";
  for (const char* setting :
       {"--node-name-map", "-C mlx5_0", "-P 1", "--rrdcached", "--baseline", "--thresholds"})
    CHECK(all.find(setting) != std::string::npos);
  require_known_options(lines, {kChecks.begin(), kChecks.end()});
  // The baseline reaches check_ib_topology as one word, exactly.
  int topology_lines = 0;
  for (const std::string& line : lines) {
    if (line.find("check_ib_topology") == std::string::npos) continue;
    ++topology_lines;
    const auto words = command_words(line);
    const auto at = std::find(words.begin(), words.end(), "--baseline");
    INFO(line);
    REQUIRE(at != words.end());
    REQUIRE(at + 1 != words.end());
    CHECK(*(at + 1) == baseline_path(dir));
  }
  CHECK(topology_lines >= 1);
  // The thresholds file reaches every polling check (not the host check, which counts no rates).
  std::set<std::string> with_thresholds;
  for (const std::string& line : lines)
    for (const auto& [check, options] : check_options(line))
      if (options.contains("--thresholds")) {
        const auto words = command_words(line);
        const auto at = std::find(words.begin(), words.end(), "--thresholds");
        INFO(line);
        REQUIRE(at + 1 < words.end());
        CHECK(*(at + 1) == dir / "thresholds.conf");
        CHECK(!options.contains("--no-default-thresholds"));
        with_thresholds.insert(check);
      }
  CHECK(with_thresholds ==
        std::set<std::string>{"check_ib_port", "check_ib_node", "check_ib_fabric"});
}

TEST_CASE("Every argument of the Icinga 2 CheckCommands is an option of its check") {
  require_known_arguments(
      icinga_commands({source_file("nagios-config/icinga2/ibpm-commands.conf"),
                       source_file("nagios-config/icinga2/ibpm-templates.conf")}));
  TempDir dir("icinga-options");
  const auto files = generate(dir, "icinga2", {"--zones", "2"});
  REQUIRE(files.contains("ibpm-zones.conf"));
  std::vector<std::string> texts;
  for (const auto& [name, text] : files) texts.push_back(text);
  require_known_arguments(icinga_commands(texts));
}

TEST_CASE("Every option of each check is an argument of its Icinga 2 CheckCommand") {
  // Deliberate exceptions: none beyond these, which only print and exit.
  const std::set<std::string> not_arguments{"-h", "--help", "-V", "--version"};
  const std::map<std::string, std::string> command_of{{"ib_topology", "check_ib_topology"},
                                                      {"ib_port", "check_ib_port"},
                                                      {"ib_node", "check_ib_node"},
                                                      {"ib_fabric", "check_ib_fabric"},
                                                      {"ib_sm", "check_ib_sm"},
                                                      {"ib_routes", "check_ib_routes"},
                                                      {"ib_events", "check_ib_events"}};
  const auto commands = icinga_commands({source_file("nagios-config/icinga2/ibpm-commands.conf")});
  std::set<std::string> seen;
  for (const IcingaCommand& command : commands) {
    if (!command_of.contains(command.name)) continue;
    seen.insert(command.name);
    INFO("CheckCommand " << command.name);
    REQUIRE(command.program == command_of.at(command.name));
    std::set<std::string> keys;
    for (const IcingaArgument& argument : command.arguments) keys.insert(argument.key);
    for (const std::set<std::string>& option : check_help().at(command.program)) {
      bool exempt = false, present = false;
      for (const std::string& name : option) {
        exempt = exempt || not_arguments.contains(name);
        present = present || keys.contains(name);
      }
      INFO(command.program << " option " << joined(option) << " is no argument of "
                           << command.name);
      CHECK((exempt || present));
    }
  }
  CHECK(seen.size() == command_of.size());
}

TEST_CASE("Every option is checked against --help lists that are complete") {
  // The parse of --help itself: the options every check documents are all found.
  for (const std::string& check : kTopologyChecks) {
    INFO(check);
    const auto names = option_names(check);
    for (const char* option : {"-h", "--help", "-V", "--version", "-v", "-t", "--timeout", "-C",
                               "--Ca", "-P", "--Port", "--cache", "--node-name-map", "--state-dir"})
      CHECK(names.contains(option));
  }
  CHECK(option_names("check_ib_fabric").contains("--no-syslog"));
  CHECK(option_names("check_ib_port").contains("--port"));
  CHECK(option_names("check_ib_port").contains("-n"));
}

// variable -> the CheckCommands whose arguments or vars read it as $variable$.
std::map<std::string, std::set<std::string>> macros_read(
    const std::vector<IcingaCommand>& commands) {
  std::map<std::string, std::set<std::string>> read_by;
  static const std::regex macro(R"(\$(\w+)\$)");
  for (const IcingaCommand& command : commands) {
    std::string values;
    for (const IcingaArgument& argument : command.arguments)
      values += argument.value + " " + argument.set_if + " ";
    for (const auto& [var, value] : command.vars) values += value + " ";
    for (auto it = std::sregex_iterator(values.begin(), values.end(), macro);
         it != std::sregex_iterator(); ++it)
      read_by[(*it)[1].str()].insert(command.name);
  }
  return read_by;
}

TEST_CASE("Every Icinga 2 variable each generated mode sets is read by a CheckCommand") {
  // Every mode the generator writes: a variable set under a name no CheckCommand reads is an
  // option the check never gets (the passive sweep once lost its --icinga2-* options that way).
  // Besides: the variables of the Icinga Template Library's commands (dummy, cluster-zone),
  // those that describe a host to people, and those the apply rules read (host.vars.NAME).
  const std::set<std::string> others{"dummy_state", "dummy_text",     "cluster_zone",
                                     "ib_guid",     "ib_description", "ib_level"};
  const std::vector<std::vector<std::string>> modes{
      {},
      {"--zones", "2"},
      {"--node-services", "passive"},
      {"--node-services", "passive", "--icinga2-api-user-cn", "collector01"},
      {"--zones", "2", "--node-services", "passive"},
      {"--events"}};
  for (const std::vector<std::string>& mode : modes) {
    std::string command_line = "ibpm-nagios-config --format icinga2";
    for (const std::string& word : mode) command_line += " " + word;
    INFO(command_line);
    TempDir dir("icinga-vars");
    const auto files = generate(dir, "icinga2", mode);
    std::string all;
    for (const auto& [name, text] : files) all += text + "\n";
    const auto read_by = macros_read(icinga_commands({all}));
    for (const std::string& var : icinga_assigned_vars(all)) {
      if (others.contains(var) || all.find("host.vars." + var) != std::string::npos) continue;
      INFO("vars." << var << " is set but no CheckCommand reads $" << var << "$");
      CHECK(read_by.contains(var));
    }
    if (mode.size() > 1 && mode[1] == "passive") {
      // The sweep's CheckCommand gets the API, its CA and a way to authenticate.
      for (const char* option : {"api", "ca"}) {
        INFO(option);
        CHECK(icinga_assigned_vars(all).contains(std::string("ib_fabric_icinga2_") + option));
      }
    }
  }
}

TEST_CASE("The Icinga 2 settings reach every command that has the option") {
  TempDir dir("icinga-vars");
  const auto files = generate(dir, "icinga2", {"--zones", "2"});
  std::string all;
  for (const auto& [name, text] : files) all += text + "\n";
  auto read_by = macros_read(icinga_commands({all}));
  // The settings template sets ib_<command>_<key> for every command from one dictionary.
  const std::string settings = files.at("ibpm-zones.d/ibpm-global/ibpm-settings.conf");
  const auto open = settings.find("var settings = {");
  REQUIRE(open != std::string::npos);
  const std::string block = settings.substr(open, settings.find('}', open) - open);
  std::set<std::string> keys;
  static const std::regex key(R"(\n\s*(\w+)\s*=)");
  for (auto it = std::sregex_iterator(block.begin(), block.end(), key);
       it != std::sregex_iterator(); ++it)
    keys.insert((*it)[1].str());
  CHECK(keys == std::set<std::string>{"state_dir", "node_name_map", "ca", "ca_port", "rrdcached",
                                      "thresholds"});
  const std::map<std::string, std::set<std::string>> readers{
      {"state_dir", {"ib_topology", "ib_port", "ib_node", "ib_fabric", "ib_node_alive"}},
      {"node_name_map", {"ib_topology", "ib_port", "ib_node", "ib_fabric", "ib_node_alive"}},
      {"ca", {"ib_topology", "ib_port", "ib_node", "ib_fabric", "ib_node_alive"}},
      {"ca_port", {"ib_topology", "ib_port", "ib_node", "ib_fabric", "ib_node_alive"}},
      {"rrdcached", {"ib_port", "ib_node", "ib_fabric"}},
      {"thresholds", {"ib_port", "ib_node", "ib_fabric"}}};
  for (const std::string& k : keys) {
    std::set<std::string> readers_found;
    for (const char* command : {"ib_topology", "ib_port", "ib_node", "ib_fabric"})
      for (const std::string& reader : read_by[std::string(command) + "_" + k])
        readers_found.insert(reader);
    INFO("setting " << k);
    CHECK(readers_found == readers.at(k));
  }
}

TEST_CASE("The Icinga 2 commands file is what the checks' own options write") {
  // scripts/icinga2-commands.sh runs every check with --icinga2-check-command; the file in the
  // source tree must be its output, so a description or default cannot drift from --help.
  const std::string bin_dir = std::filesystem::path(bin("check_ib_port")).parent_path();
  const ProcessRun generated = run_process(
      {"/bin/bash", std::string(IBPM_SOURCE_DIR) + "/scripts/icinga2-commands.sh", bin_dir});
  INFO(generated.err);
  REQUIRE(generated.exit_code == 0);
  const std::string file = source_file("nagios-config/icinga2/ibpm-commands.conf");
  INFO("run: scripts/icinga2-commands.sh " << bin_dir
                                           << " > nagios-config/icinga2/ibpm-commands.conf");
  CHECK(generated.out == file);
  // The retired --window is gone with its option table entry.
  CHECK(file.find("\"--window\"") == std::string::npos);
  CHECK(file.find("\"--mads-in-flight\"") != std::string::npos);
}

TEST_CASE("The generator stops at a thresholds file the checks could not use") {
  // Else every polling check Nagios runs would be UNKNOWN; the message names the file and line.
  TempDir dir("nagios-thresholds");
  const std::string dump = small_dump(dir);
  write_text(dir / "bad.conf", "symbol_errors 5/h\n");
  for (const auto& [file, reason] : std::vector<std::pair<std::string, std::string>>{
           {dir / "bad.conf", "bad.conf:1: "}, {dir / "missing.conf", "missing.conf"}}) {
    const ProcessRun run = run_process({bin("ibpm-nagios-config"), "--format", "nagios", "-o",
                                        dir / "out", "--cache", dump, "--thresholds", file},
                                       {{}, Stderr::merged});
    INFO(run.out);
    CHECK(run.exit_code != 0);
    CHECK(run.out.find("--thresholds: " + dir.path().string() + "/" + reason) != std::string::npos);
    CHECK(!std::filesystem::exists(dir / "out"));
  }
}

TEST_CASE("The generator's --help names every service it writes") {
  TempDir dir("nagios-help");
  const auto files = generate(dir, "nagios", {"--events"});
  std::set<std::string> services;
  for (const auto& [name, text] : files)
    for (const NagiosObject& object : parse_nagios_objects(text))
      if (object.type == "service" && !object.get("service_description").empty())
        services.insert(object.get("service_description"));  // not the template
  CHECK(services.size() == 6);
  const ProcessRun help = run_process({bin("ibpm-nagios-config"), "--help"}, {{}, Stderr::merged});
  for (const std::string& service : services) {
    INFO(service);
    CHECK(help.out.find(service) != std::string::npos);
  }
  // --check-interval says it is Icinga 2's, and the generator refuses it for Nagios.
  CHECK(help.out.find("Icinga 2 only: seconds between checks") != std::string::npos);
}
