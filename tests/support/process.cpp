// SPDX-License-Identifier: MIT
// posix_spawn with pipes read through poll() for programs, fork and exec for background ones
// (so they die with the test), fork with setrlimit and alarm for bounded functions.
#include "support/process.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <fstream>
#include <map>
#include <new>
#include <sstream>
#include <stdexcept>
#include <thread>

#if defined(__SANITIZE_ADDRESS__)
#define IBPM_TEST_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define IBPM_TEST_ASAN 1
#endif
#endif

extern char** environ;

namespace ibpm::test {

namespace fs = std::filesystem;

namespace {

std::vector<std::string> environment_with(const std::vector<std::string>& overrides) {
  std::map<std::string, std::string> vars;
  for (char** e = environ; *e; ++e) {
    const std::string entry(*e);
    vars[entry.substr(0, entry.find('='))] = entry;
  }
  for (const std::string& entry : overrides) vars[entry.substr(0, entry.find('='))] = entry;
  std::vector<std::string> result;
  for (auto& [name, entry] : vars) result.push_back(entry);
  return result;
}

std::vector<char*> c_strings(std::vector<std::string>& strings) {
  std::vector<char*> result;
  for (std::string& s : strings) result.push_back(s.data());
  result.push_back(nullptr);
  return result;
}

int wait_exit_code(pid_t pid) {
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

// Reads every open descriptor of `fds` into its string until all of them are closed.
void read_until_closed(std::vector<std::pair<int, std::string*>> fds) {
  char buffer[8192];
  while (!fds.empty()) {
    std::vector<pollfd> polled;
    for (const auto& [fd, into] : fds) polled.push_back({fd, POLLIN, 0});
    if (::poll(polled.data(), polled.size(), -1) < 0) {
      if (errno == EINTR) continue;
      break;
    }
    for (std::size_t i = polled.size(); i-- > 0;) {
      if (polled[i].revents == 0) continue;
      const ssize_t n = ::read(fds[i].first, buffer, sizeof buffer);
      if (n > 0) {
        fds[i].second->append(buffer, static_cast<std::size_t>(n));
      } else if (n == 0 || errno != EINTR) {
        ::close(fds[i].first);
        fds.erase(fds.begin() + static_cast<std::ptrdiff_t>(i));
      }
    }
  }
  for (const auto& [fd, into] : fds) ::close(fd);
}

[[maybe_unused]] std::size_t mapped_bytes() {  // unused under ASan (no memory cap)
  std::ifstream statm("/proc/self/statm");
  std::size_t pages = 0;
  statm >> pages;
  return pages * static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
}

[[noreturn]] void report(int fd, int code, const std::string& message) {
  [[maybe_unused]] auto written = ::write(fd, message.data(), message.size());
  ::_exit(code);
}

}  // namespace

std::vector<std::string> ProcessRun::lines() const {
  std::vector<std::string> result;
  std::istringstream in(out);
  for (std::string line; std::getline(in, line);) result.push_back(line);
  return result;
}

std::size_t ProcessRun::line_count() const {
  std::size_t n = 0;
  for (const char c : out) n += c == '\n';
  return n;
}

ProcessRun run_process(const std::vector<std::string>& argv, const ProcessOptions& options) {
  int out_fds[2], err_fds[2] = {-1, -1};
  if (::pipe2(out_fds, O_CLOEXEC) != 0) throw std::runtime_error("pipe failed");
  const bool capture_err = options.stderr_to == Stderr::captured;
  if (capture_err && ::pipe2(err_fds, O_CLOEXEC) != 0) {
    ::close(out_fds[0]);
    ::close(out_fds[1]);
    throw std::runtime_error("pipe failed");
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, out_fds[1], 1);
  switch (options.stderr_to) {
    case Stderr::captured:
      posix_spawn_file_actions_adddup2(&actions, err_fds[1], 2);
      break;
    case Stderr::merged:
      posix_spawn_file_actions_adddup2(&actions, out_fds[1], 2);
      break;
    case Stderr::discarded:
      posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
      break;
  }
  std::vector<std::string> args = argv, vars = environment_with(options.env);
  auto c_args = c_strings(args);
  auto c_vars = c_strings(vars);
  const auto start = std::chrono::steady_clock::now();
  pid_t pid = 0;
  const int rc =
      ::posix_spawnp(&pid, c_args.at(0), &actions, nullptr, c_args.data(), c_vars.data());
  posix_spawn_file_actions_destroy(&actions);
  ::close(out_fds[1]);
  if (capture_err) ::close(err_fds[1]);
  if (rc != 0) {
    ::close(out_fds[0]);
    if (capture_err) ::close(err_fds[0]);
    throw std::runtime_error("cannot run " + argv.at(0));
  }
  ProcessRun run;
  std::vector<std::pair<int, std::string*>> fds{{out_fds[0], &run.out}};
  if (capture_err) fds.emplace_back(err_fds[0], &run.err);
  read_until_closed(fds);
  run.exit_code = wait_exit_code(pid);
  run.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return run;
}

BackgroundProcess::BackgroundProcess(const std::vector<std::string>& argv, const fs::path& log) {
  // Everything the child needs is made before fork: between fork and exec it only calls
  // async-signal-safe functions.
  std::vector<std::string> args = argv, vars = environment_with({});
  auto c_args = c_strings(args);
  auto c_vars = c_strings(vars);
  const std::string log_path = log.string();
  const pid_t parent = ::getpid();
  pid_ = ::fork();
  if (pid_ < 0) throw std::runtime_error("fork failed");
  if (pid_ == 0) {
    ::prctl(PR_SET_PDEATHSIG, SIGTERM);  // no daemon left behind when a test crashes
    if (::getppid() != parent) ::_exit(127);
    const int in = ::open("/dev/null", O_RDONLY);
    const int out = ::open(log_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (in < 0 || out < 0) ::_exit(127);
    ::dup2(in, 0);
    ::dup2(out, 1);
    ::dup2(out, 2);
    ::execve(c_args[0], c_args.data(), c_vars.data());
    ::_exit(127);
  }
}

BackgroundProcess::~BackgroundProcess() { stop(); }

bool BackgroundProcess::running() {
  if (reaped_) return false;
  int status = 0;
  if (::waitpid(pid_, &status, WNOHANG) == pid_) reaped_ = true;
  return !reaped_;
}

void BackgroundProcess::stop() {
  if (!running()) return;
  ::kill(pid_, SIGTERM);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (running() && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  if (running()) {
    ::kill(pid_, SIGKILL);
    ::waitpid(pid_, nullptr, 0);
    reaped_ = true;
  }
}

ChildOutcome run_bounded(const std::function<std::string()>& work, ChildLimits limits) {
  int fds[2];
  if (::pipe(fds) != 0) throw std::runtime_error("pipe failed");
  const pid_t pid = ::fork();
  if (pid < 0) throw std::runtime_error("fork failed");
  if (pid == 0) {
    ::close(fds[0]);
#ifndef IBPM_TEST_ASAN
    const rlim_t cap = mapped_bytes() + limits.extra_memory;
    const rlimit memory{cap, cap};
    ::setrlimit(RLIMIT_AS, &memory);
#endif
    ::alarm(limits.seconds);
    std::string result;
    try {
      result = work();
    } catch (const std::bad_alloc&) {
      report(fds[1], 3, "out of memory");
    } catch (const std::exception& e) {
      report(fds[1], 1, e.what());
    }
    report(fds[1], 0, result);
  }
  ::close(fds[1]);
  ChildOutcome outcome;
  read_until_closed({{fds[0], &outcome.message}});
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
    outcome.kind = ChildOutcome::Kind::returned;
  else if (WIFEXITED(status) && WEXITSTATUS(status) == 1)
    outcome.kind = ChildOutcome::Kind::threw;
  else if (WIFSIGNALED(status))
    outcome.message = ::strsignal(WTERMSIG(status));
  return outcome;
}

std::string bin(const std::string& name) { return std::string(IBPM_BIN_DIR) + "/" + name; }

std::string find_program(const std::string& name) {
  const char* path = std::getenv("PATH");
  std::string folders = std::string(path ? path : "/usr/bin:/bin") + ":/usr/sbin:/sbin";
  std::istringstream in(folders);
  for (std::string folder; std::getline(in, folder, ':');) {
    if (folder.empty()) continue;
    const fs::path candidate = fs::path(folder) / name;
    if (::access(candidate.c_str(), X_OK) == 0) return candidate.string();
  }
  return {};
}

}  // namespace ibpm::test
