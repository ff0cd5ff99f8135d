// SPDX-License-Identifier: MIT
// Child processes for the simulated fabric: spawning with posix_spawn, waiting with a deadline,
// capturing output, and ending a process by its pid.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace ibpm::sim {

struct SpawnRequest {
  std::vector<std::string> argv;                // argv[0] must be a path (see find_program)
  std::optional<std::vector<std::string>> env;  // nullopt: inherit this process's environment
  std::filesystem::path cwd;                    // empty: inherit
  // Files opened in the child as stdin / stdout (stderr then goes to stdout_file too); empty
  // keeps the parent's descriptors.
  std::filesystem::path stdin_file;
  int stdin_flags = 0;  // open(2) flags for stdin_file, e.g. O_RDWR for a fifo
  std::filesystem::path stdout_file;
  bool new_session = false;  // setsid(): survives this process and its terminal
};

// Starts the process; every descriptor above 2 is closed in the child. Throws
// std::system_error (ENOENT when argv[0] does not exist).
pid_t spawn(const SpawnRequest& request);

// Exit code of a finished child, 128 + signal number when a signal ended it.
// nullopt while it runs. Only for children of this process.
std::optional<int> try_wait(pid_t pid);

// Waits for a child until the deadline; nullopt when it is still running then.
std::optional<int> wait_until(pid_t pid, std::chrono::steady_clock::time_point deadline);

// True while the process exists and is not a zombie (works for any pid, child or not).
bool process_alive(pid_t pid);

// SIGTERM, then SIGKILL after `grace`; reaps it when it is a child of this process.
void end_process(pid_t pid, std::chrono::milliseconds grace = std::chrono::milliseconds(2000));

// Whether /proc/PID/environ holds `entry` ("NAME=value"): proves a pid still belongs to the
// process we started before signalling it (pids are reused).
bool process_has_env(pid_t pid, const std::string& entry);

struct CapturedRun {
  int exit_code = -1;
  bool timed_out = false;  // it was killed at the deadline
  std::string out;
  std::string err;
};

// Runs to completion with stdout and stderr captured; at the timeout the process is killed.
CapturedRun run_captured(const SpawnRequest& request, std::chrono::milliseconds timeout);

// Looks a program up in PATH and then in the sbin folders (which a normal user's PATH on
// Debian lacks, though opensm, ibnetdiscover and perfquery live there). A name containing
// '/' is returned as is when it exists.
std::optional<std::filesystem::path> find_program(const std::string& name);

// The current environment with NAME=... entries replaced or added and the `removed` names
// left out.
std::vector<std::string> environment_with(const std::vector<std::string>& overrides,
                                          const std::vector<std::string>& removed = {});

}  // namespace ibpm::sim
