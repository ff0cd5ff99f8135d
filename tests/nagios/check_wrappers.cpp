// SPDX-License-Identifier: MIT

#include "check_wrappers.hpp"

#include <string>

#include "support/process.hpp"
#include "support/text_files.hpp"

namespace ibpm::nagios_test {

namespace fs = std::filesystem;
using namespace ibpm::test;

namespace {

std::string shell_quoted(const std::string& text) {
  std::string quoted = "'";
  for (char c : text) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

}  // namespace

void write_check_wrappers(LiveFabric& live, const fs::path& dir) {
  fs::create_directories(dir);
  std::string env;
  for (const std::string& entry : live.fabric.client_env_overrides()) {
    const auto equals = entry.find('=');
    env +=
        "export " + entry.substr(0, equals) + "=" + shell_quoted(entry.substr(equals + 1)) + "\n";
  }
  for (const char* check : {"check_ib_topology", "check_ib_port", "check_ib_node",
                            "check_ib_fabric", "check_ib_sm", "check_ib_routes"}) {
    const fs::path script = dir / check;
    // The simulator's library names the client it attached as on stderr, which Icinga 2 would
    // take into the check's output: that line is dropped, the rest of stderr kept.
    write_text(script, "#!/bin/bash\ncd " + shell_quoted(live.fabric.clients_dir().string()) +
                           " || exit 3\n" + env +
                           "exec 2> >(grep -v '^ibwarn: \\[[0-9]*\\] sim_connect: attached as "
                           "client' >&2)\nexec " +
                           shell_quoted(bin(check)) + " \"$@\"\n");
    fs::permissions(script, fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec |
                                fs::perms::others_read | fs::perms::others_exec);
  }
}

}  // namespace ibpm::nagios_test
