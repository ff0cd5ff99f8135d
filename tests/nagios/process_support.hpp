// Running programs (the checks, the generator, the monitoring daemons) and the files around
// them, for the Nagios and Icinga 2 tests.
#pragma once

#include <sys/types.h>

#include <filesystem>
#include <string>
#include <vector>

namespace ibpm::nagios_test {

struct ProcessRun {
  int exit_code = -1;
  std::string output;  // stdout and stderr, interleaved as written
};

// Runs argv (argv[0] a path) to its end with this environment plus `env` ("NAME=value" each,
// replacing variables of the same name).
ProcessRun run_process(const std::vector<std::string>& argv,
                       const std::vector<std::string>& env = {});

// Path of a built executable (the build tree's bin/).
std::string bin(const std::string& name);

// Full path of an installed program found in PATH or the sbin folders; empty when absent.
std::string find_program(const std::string& name);

std::string read_text(const std::filesystem::path& path);
void write_text(const std::filesystem::path& path, const std::string& text);

// A new folder under the temporary folder, removed with everything in it at the end.
class TempDir {
 public:
  explicit TempDir(const std::string& name);
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::filesystem::path& path() const { return path_; }
  std::string operator/(const std::string& name) const { return (path_ / name).string(); }

 private:
  std::filesystem::path path_;
};

// A child process that runs in the background; the destructor ends it (SIGTERM, then SIGKILL
// after a grace period) by its pid, however the test ends.
class BackgroundProcess {
 public:
  BackgroundProcess(const std::vector<std::string>& argv, const std::filesystem::path& log);
  ~BackgroundProcess();
  BackgroundProcess(const BackgroundProcess&) = delete;
  BackgroundProcess& operator=(const BackgroundProcess&) = delete;

  pid_t pid() const { return pid_; }
  bool running();
  void stop();

 private:
  pid_t pid_ = -1;
  bool reaped_ = false;
};

}  // namespace ibpm::nagios_test
