// SPDX-License-Identifier: MIT
// Running other processes from a test: a program to its end (its output captured), a program in
// the background (ended by the destructor), and a function in a forked child with its memory and
// CPU time capped. The one place the tests spawn, fork and wait.
#pragma once

#include <sys/types.h>

#include <cstddef>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

namespace ibpm::test {

// Where a program's stderr goes.
enum class Stderr { captured, merged, discarded };

struct ProcessOptions {
  std::vector<std::string> env;  // "NAME=value" each, replacing variables of the same name
  Stderr stderr_to = Stderr::captured;
};

struct ProcessRun {
  int exit_code = -1;  // 128 + signal number when killed by a signal
  std::string out;     // stdout (with stderr interleaved under Stderr::merged)
  std::string err;     // stderr under Stderr::captured
  double seconds = 0;  // wall time of the run

  std::string first_line() const { return out.substr(0, out.find('\n')); }
  std::vector<std::string> lines() const;
  std::size_t line_count() const;
  bool has(const std::string& text) const { return out.find(text) != std::string::npos; }
};

// Runs argv to its end (argv[0] a path, or a name looked up in PATH), stdin from /dev/null.
// Throws std::runtime_error when it cannot start.
ProcessRun run_process(const std::vector<std::string>& argv, const ProcessOptions& options = {});

// A program running in the background, stdout and stderr to `log`; the destructor ends it
// (SIGTERM, then SIGKILL after a grace period) by its pid, however the test ends, and the
// kernel sends it SIGTERM if the test process dies first.
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

// What became of a function run by run_bounded.
struct ChildOutcome {
  enum class Kind { returned, threw, killed } kind = Kind::killed;
  std::string message;  // what work returned, what() of its exception, or the signal's name
  bool ok() const { return kind != Kind::killed; }
};

struct ChildLimits {
  std::size_t extra_memory = std::size_t{256} << 20;  // over what the process already maps
  unsigned seconds = 5;
};

// Runs `work` in a forked child, so a test can show that a loader stays bounded on hostile input
// (and survive it when it does not). `work` returns a report or throws std::exception; anything
// else (a signal, std::bad_alloc, the alarm, the memory cap) is `killed`. `work` may call alarm()
// again to give each of several steps its own time. Under AddressSanitizer the memory cap is
// left out (its shadow memory needs terabytes of address space); the time cap stays.
ChildOutcome run_bounded(const std::function<std::string()>& work, ChildLimits limits = {});

// Path of a built executable (the build tree's bin/).
std::string bin(const std::string& name);

// Full path of an installed program found in PATH or the sbin folders; empty when absent.
std::string find_program(const std::string& name);

}  // namespace ibpm::test
