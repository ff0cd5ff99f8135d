// Runs one of our executables and captures what it prints, for tests of whole commands.
#pragma once

#include <string>
#include <vector>

namespace ibpm::test {

struct CommandResult {
  int exit_code = -1;
  std::string out;  // stdout
  std::string first_line() const { return out.substr(0, out.find('\n')); }
};

// argv[0] is a path; stderr is discarded.
CommandResult run_command(const std::vector<std::string>& argv);

std::string bin(const std::string& name);  // path of a built executable

}  // namespace ibpm::test
