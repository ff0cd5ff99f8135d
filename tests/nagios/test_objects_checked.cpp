// SPDX-License-Identifier: MIT
// Every Nagios host the configuration defines reaches a real state: each has a check_command
// (its own or through its templates) that names a defined command, and a check_interval, or
// Nagios would keep it PENDING (the fabric's host once had none). The static files and every
// mode of the generator.
#include <catch2/catch.hpp>
#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "config_parsing.hpp"
#include "generator_run.hpp"
#include "support/temp_dir.hpp"
#include "support/text_files.hpp"

using namespace ibpm::nagios_test;
using namespace ibpm::test;

namespace {

// A directive of `object`, or of the first of its templates (use) that has it.
std::string inherited(const NagiosObject& object,
                      const std::map<std::string, NagiosObject>& templates,
                      const std::string& directive, int depth = 0) {
  if (const std::string own = object.get(directive); !own.empty()) return own;
  REQUIRE(depth < 16);
  std::string use = object.get("use");
  while (!use.empty()) {
    const std::string name = use.substr(0, use.find(','));
    use = use.find(',') == std::string::npos ? "" : use.substr(use.find(',') + 1);
    INFO("template " << name);
    REQUIRE(templates.contains(name));
    if (const std::string found = inherited(templates.at(name), templates, directive, depth + 1);
        !found.empty())
      return found;
  }
  return {};
}

// Every registered host of `texts`: its check command defined, and checked at an interval.
void require_hosts_checked(const std::vector<std::string>& texts, std::size_t hosts_expected) {
  std::vector<NagiosObject> objects;
  for (const std::string& text : texts)
    for (NagiosObject& object : parse_nagios_objects(text)) objects.push_back(object);
  std::map<std::string, NagiosObject> templates;
  std::set<std::string> commands;
  for (const NagiosObject& object : objects) {
    if (object.type == "host" && !object.get("name").empty())
      templates[object.get("name")] = object;
    if (object.type == "command") commands.insert(object.get("command_name"));
  }
  std::size_t hosts = 0;
  for (const NagiosObject& object : objects) {
    if (object.type != "host" || object.get("host_name").empty()) continue;
    ++hosts;
    INFO("host " << object.get("host_name"));
    const std::string command = inherited(object, templates, "check_command");
    REQUIRE(!command.empty());
    CHECK(commands.contains(command.substr(0, command.find('!'))));
    // 0: on demand only, when a service turns bad (the passive switches).
    CHECK(!inherited(object, templates, "check_interval").empty());
  }
  CHECK(hosts == hosts_expected);
}

std::string static_nagios_file(const std::string& relative) {
  return read_text(std::string(IBPM_SOURCE_DIR) + "/" + relative);
}

}  // namespace

TEST_CASE("Every Nagios host of the static example has a host check") {
  std::vector<std::string> texts;
  for (const char* file : {"ibpm-commands.cfg", "ibpm-templates.cfg", "ibpm-example.cfg"})
    texts.push_back(static_nagios_file(std::string("nagios-config/nagios/") + file));
  require_hosts_checked(texts, 3);
}

TEST_CASE("Every Nagios host the generator writes has a host check, the fabric's too") {
  TempDir dir("nagios-hosts");
  const std::string dump = generated_fat_tree(dir, "fabric.ibnetdiscover", 36, 12);
  const std::vector<std::vector<std::string>> modes{
      {}, {"--cas"}, {"--node-services", "passive"}, {"--fabric-host", "fabric1", "--events"}};
  for (const auto& mode : modes) {
    std::string line;
    for (const std::string& word : mode) line += " " + word;
    INFO("ibpm-nagios-config" << line);
    const std::string out = dir / "out";
    run_config_generator(dir, "nagios", out, dump, mode);
    std::vector<std::string> texts;
    for (const auto& entry : std::filesystem::directory_iterator(out))
      texts.push_back(read_text(entry.path()));
    // The fabric's host and one per node (_IB_GUID).
    std::size_t expected = 1;  // the fabric's
    for (const std::string& text : texts)
      for (const NagiosObject& object : parse_nagios_objects(text))
        expected += object.type == "host" && !object.get("_IB_GUID").empty();
    CHECK(expected > 1);
    require_hosts_checked(texts, expected);
  }
}
