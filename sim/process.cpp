// SPDX-License-Identifier: MIT

#include "sim/process.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <system_error>
#include <thread>

extern char** environ;

namespace ibpm::sim {
namespace {

using Clock = std::chrono::steady_clock;

std::vector<char*> c_strings(const std::vector<std::string>& strings) {
  std::vector<char*> out;
  out.reserve(strings.size() + 1);
  for (const std::string& s : strings) out.push_back(const_cast<char*>(s.c_str()));
  out.push_back(nullptr);
  return out;
}

void check(int rc, const char* what) {
  if (rc != 0) throw std::system_error(rc, std::generic_category(), what);
}

struct FileActions {
  posix_spawn_file_actions_t actions;
  FileActions() { check(posix_spawn_file_actions_init(&actions), "posix_spawn_file_actions_init"); }
  ~FileActions() { posix_spawn_file_actions_destroy(&actions); }
};

struct Attributes {
  posix_spawnattr_t attr;
  Attributes() { check(posix_spawnattr_init(&attr), "posix_spawnattr_init"); }
  ~Attributes() { posix_spawnattr_destroy(&attr); }
};

// out_fd / err_fd >= 0 replace the child's stdout / stderr (used for capturing).
pid_t spawn_with(const SpawnRequest& request, int out_fd, int err_fd) {
  if (request.argv.empty()) throw std::invalid_argument("spawn: empty argv");
  FileActions fa;
  posix_spawn_file_actions_t* a = &fa.actions;
  if (!request.stdin_file.empty())
    check(
        posix_spawn_file_actions_addopen(a, 0, request.stdin_file.c_str(), request.stdin_flags, 0),
        "posix_spawn_file_actions_addopen");
  if (out_fd >= 0) {
    check(posix_spawn_file_actions_adddup2(a, out_fd, 1), "posix_spawn_file_actions_adddup2");
  } else if (!request.stdout_file.empty()) {
    check(posix_spawn_file_actions_addopen(a, 1, request.stdout_file.c_str(),
                                           O_WRONLY | O_CREAT | O_APPEND, 0644),
          "posix_spawn_file_actions_addopen");
  }
  if (err_fd >= 0)
    check(posix_spawn_file_actions_adddup2(a, err_fd, 2), "posix_spawn_file_actions_adddup2");
  else if (!request.stdout_file.empty())
    check(posix_spawn_file_actions_adddup2(a, 1, 2), "posix_spawn_file_actions_adddup2");
  if (!request.cwd.empty())
    check(posix_spawn_file_actions_addchdir_np(a, request.cwd.c_str()),
          "posix_spawn_file_actions_addchdir_np");
  // Without this the child inherits every descriptor of ours that lacks O_CLOEXEC, e.g. the
  // pipes a test runner reads, and a detached ibsim would keep them open for its lifetime.
  check(posix_spawn_file_actions_addclosefrom_np(a, 3), "posix_spawn_file_actions_addclosefrom_np");

  Attributes attributes;
  sigset_t none, all;
  sigemptyset(&none);
  sigfillset(&all);
  short flags = POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF;
  if (request.new_session) flags |= POSIX_SPAWN_SETSID;
  check(posix_spawnattr_setsigmask(&attributes.attr, &none), "posix_spawnattr_setsigmask");
  check(posix_spawnattr_setsigdefault(&attributes.attr, &all), "posix_spawnattr_setsigdefault");
  check(posix_spawnattr_setflags(&attributes.attr, flags), "posix_spawnattr_setflags");

  std::vector<char*> argv = c_strings(request.argv);
  std::vector<char*> envp;
  if (request.env) envp = c_strings(*request.env);
  pid_t pid = 0;
  int rc = posix_spawn(&pid, argv[0], a, &attributes.attr, argv.data(),
                       request.env ? envp.data() : environ);
  if (rc != 0)
    throw std::system_error(rc, std::generic_category(), "cannot start " + request.argv[0]);
  return pid;
}

int decode(int status) {
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
  return -1;
}

void nap(int attempt) {
  // 1 ms at first, then up to 10 ms: quick exits are seen quickly without spinning.
  std::this_thread::sleep_for(std::chrono::milliseconds(attempt < 20 ? 1 : 10));
}

}  // namespace

pid_t spawn(const SpawnRequest& request) { return spawn_with(request, -1, -1); }

std::optional<int> try_wait(pid_t pid) {
  int status = 0;
  pid_t r;
  do {
    r = waitpid(pid, &status, WNOHANG);
  } while (r < 0 && errno == EINTR);
  if (r == 0) return std::nullopt;
  if (r < 0) return -1;  // not our child (anymore)
  return decode(status);
}

std::optional<int> wait_until(pid_t pid, Clock::time_point deadline) {
  for (int attempt = 0;; ++attempt) {
    if (auto code = try_wait(pid)) return code;
    if (Clock::now() >= deadline) return std::nullopt;
    nap(attempt);
  }
}

bool process_alive(pid_t pid) {
  if (pid <= 0) return false;
  if (kill(pid, 0) != 0 && errno != EPERM) return false;
  // A zombie still answers kill(0); its state letter in /proc/PID/stat (after the ")" that
  // closes the command name) is Z.
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string text((std::istreambuf_iterator<char>(stat)), std::istreambuf_iterator<char>());
  auto close = text.rfind(')');
  if (close == std::string::npos || close + 2 >= text.size()) return !text.empty();
  return text[close + 2] != 'Z';
}

void end_process(pid_t pid, std::chrono::milliseconds grace) {
  if (pid <= 0) return;
  // A child that has exited is a zombie until reaped: not alive, then try_wait reaps it.
  auto wait_gone = [pid](Clock::time_point deadline) {
    for (int attempt = 0;; ++attempt) {
      if (!process_alive(pid)) {
        try_wait(pid);
        return true;
      }
      if (Clock::now() >= deadline) return false;
      nap(attempt);
    }
  };
  if (wait_gone(Clock::now())) return;
  kill(pid, SIGTERM);
  if (wait_gone(Clock::now() + grace)) return;
  kill(pid, SIGKILL);
  wait_gone(Clock::now() + std::chrono::seconds(5));
}

bool process_has_env(pid_t pid, const std::string& entry) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/environ", std::ios::binary);
  std::string item;
  while (std::getline(in, item, '\0'))
    if (item == entry) return true;
  return false;
}

CapturedRun run_captured(const SpawnRequest& request, std::chrono::milliseconds timeout) {
  int out_pipe[2], err_pipe[2];
  if (pipe2(out_pipe, O_CLOEXEC) != 0)
    throw std::system_error(errno, std::generic_category(), "pipe2");
  if (pipe2(err_pipe, O_CLOEXEC) != 0) {
    int e = errno;
    close(out_pipe[0]);
    close(out_pipe[1]);
    throw std::system_error(e, std::generic_category(), "pipe2");
  }
  pid_t pid;
  try {
    pid = spawn_with(request, out_pipe[1], err_pipe[1]);
  } catch (...) {
    for (int fd : {out_pipe[0], out_pipe[1], err_pipe[0], err_pipe[1]}) close(fd);
    throw;
  }
  close(out_pipe[1]);
  close(err_pipe[1]);

  CapturedRun run;
  auto deadline = Clock::now() + timeout;
  pollfd fds[2] = {{out_pipe[0], POLLIN, 0}, {err_pipe[0], POLLIN, 0}};
  std::string* sinks[2] = {&run.out, &run.err};
  int open_count = 2;
  char buffer[65536];
  while (open_count > 0) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
    if (left.count() <= 0) {
      run.timed_out = true;
      break;
    }
    int n = poll(fds, 2, static_cast<int>(std::min<long long>(left.count(), 1000)));
    if (n < 0 && errno != EINTR) break;
    for (int i = 0; i < 2; ++i) {
      if (fds[i].fd < 0 || fds[i].revents == 0) continue;
      ssize_t got = read(fds[i].fd, buffer, sizeof buffer);
      if (got > 0) {
        sinks[i]->append(buffer, static_cast<std::size_t>(got));
      } else if (got == 0 || (errno != EINTR && errno != EAGAIN)) {
        close(fds[i].fd);
        fds[i].fd = -1;
        --open_count;
      }
    }
  }
  for (pollfd& p : fds)
    if (p.fd >= 0) close(p.fd);

  if (!run.timed_out) {
    // Output closed: the process is exiting; give it until the deadline all the same.
    if (auto code = wait_until(pid, deadline)) {
      run.exit_code = *code;
      return run;
    }
    run.timed_out = true;
  }
  kill(pid, SIGKILL);
  run.exit_code = wait_until(pid, Clock::now() + std::chrono::seconds(5)).value_or(-1);
  return run;
}

std::optional<std::filesystem::path> find_program(const std::string& name) {
  namespace fs = std::filesystem;
  auto runnable = [](const fs::path& p) {
    struct stat st;
    return stat(p.c_str(), &st) == 0 && S_ISREG(st.st_mode) && access(p.c_str(), X_OK) == 0;
  };
  if (name.empty()) return std::nullopt;
  if (name.find('/') != std::string::npos) {
    if (runnable(name)) return fs::path(name);
    return std::nullopt;
  }
  std::string dirs;
  if (const char* path = std::getenv("PATH")) dirs = path;
  dirs += ":/usr/local/sbin:/usr/sbin:/sbin";
  std::size_t start = 0;
  while (start <= dirs.size()) {
    std::size_t end = dirs.find(':', start);
    if (end == std::string::npos) end = dirs.size();
    std::string dir = dirs.substr(start, end - start);
    if (!dir.empty()) {
      fs::path candidate = fs::path(dir) / name;
      if (runnable(candidate)) return candidate;
    }
    start = end + 1;
  }
  return std::nullopt;
}

std::vector<std::string> environment_with(const std::vector<std::string>& overrides,
                                          const std::vector<std::string>& removed) {
  std::vector<std::string> env;
  auto name_of = [](const std::string& entry) { return entry.substr(0, entry.find('=')); };
  for (char** e = environ; e && *e; ++e) {
    std::string entry = *e;
    std::string name = name_of(entry);
    bool dropped = std::find(removed.begin(), removed.end(), name) != removed.end();
    for (const std::string& o : overrides)
      if (name_of(o) == name) dropped = true;
    if (!dropped) env.push_back(std::move(entry));
  }
  env.insert(env.end(), overrides.begin(), overrides.end());
  return env;
}

}  // namespace ibpm::sim
