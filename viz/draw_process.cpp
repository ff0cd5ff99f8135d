// SPDX-License-Identifier: MIT

#include "viz/draw_process.hpp"

#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <stdexcept>
#include <thread>

#include "viz/map_job.hpp"

extern char** environ;

namespace ibpm::viz {

namespace {

std::string system_error(const std::string& what, int error) {
  return what + ": " + std::strerror(error);
}

}  // namespace

std::string draw_program() {
  if (const char* env = std::getenv("IBPM_DRAW"); env && *env) return env;
  std::error_code ec;
  const std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (ec) return "ibpm-draw";
  return (self.parent_path() / "ibpm-draw").string();
}

DrawProcess::DrawProcess(std::string program, std::chrono::milliseconds limit)
    : program_(std::move(program)), limit_(limit) {}

DrawProcess::~DrawProcess() {
  // Maps still pending are abandoned (the run failed elsewhere): nothing waits for them.
  if (pid_ > 0 || fd_ >= 0) stop(!pending_.empty());
}

void DrawProcess::start() {
  if (::access(program_.c_str(), X_OK) != 0)
    throw std::runtime_error(system_error("cannot run " + program_, errno) +
                             " (ibpm-draw draws the maps: install it beside this command, or "
                             "name it in IBPM_DRAW)");
  int fds[2];
  if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) != 0)
    throw std::runtime_error(system_error("cannot connect to ibpm-draw", errno));
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, fds[1], STDIN_FILENO);
  posix_spawn_file_actions_adddup2(&actions, fds[1], STDOUT_FILENO);
  const std::string answers = "--answers";
  char* const argv[] = {const_cast<char*>(program_.c_str()), const_cast<char*>(answers.c_str()),
                        nullptr};
  pid_t pid = -1;
  const int rc = ::posix_spawn(&pid, program_.c_str(), &actions, nullptr, argv, environ);
  posix_spawn_file_actions_destroy(&actions);
  ::close(fds[1]);
  if (rc != 0) {
    ::close(fds[0]);
    throw std::runtime_error(system_error("cannot run " + program_, rc));
  }
  pid_ = pid;
  fd_ = fds[0];
  deadline_ = std::chrono::steady_clock::now() + limit_;
  send(map_jobs_header());
}

void DrawProcess::send(const std::string& data) {
  std::size_t done = 0;
  while (done < data.size()) {
    const ssize_t n =
        ::send(fd_, data.data() + done, data.size() - done, MSG_NOSIGNAL | MSG_DONTWAIT);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
      // Its answers are taken while it reads slowly, so neither side waits on a full socket.
      if (wait_for(POLLOUT | POLLIN) & POLLIN) collect(false);
      continue;
    }
    if (n < 0 && (errno == EPIPE || errno == ECONNRESET)) {
      collect(true);  // its reason, when it gave one
      fail_exited();
    }
    if (n < 0) throw std::runtime_error(system_error("cannot send a map to " + program_, errno));
    done += static_cast<std::size_t>(n);
  }
}

void DrawProcess::render(const MapGraph& map, MapFormat format, const std::string& path) {
  if (pid_ < 0) start();
  collect(false);
  std::string job;
  append_map_job(job, MapJob{path, format, map});
  pending_.push_back(path);
  send(job);
}

void DrawProcess::finish() { collect(true); }

void DrawProcess::collect(bool wait) {
  while (!pending_.empty()) {
    if (wait) wait_for(POLLIN);
    char buffer[4096];
    const ssize_t n = ::recv(fd_, buffer, sizeof buffer, MSG_DONTWAIT);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
      if (wait) continue;
      return;
    }
    if (n < 0 && errno != ECONNRESET)
      throw std::runtime_error(system_error("cannot read from " + program_, errno));
    if (n <= 0) fail_exited();
    answers_.append(buffer, static_cast<std::size_t>(n));
    for (std::size_t eol; (eol = answers_.find('\n')) != std::string::npos;) {
      const std::string line = answers_.substr(0, eol);
      answers_.erase(0, eol + 1);
      if (line == "ok") {
        if (!pending_.empty()) pending_.pop_front();
        continue;
      }
      const std::string reason =
          line.starts_with("error ") ? line.substr(6) : program_ + " answered '" + line + "'";
      pending_.clear();
      stop(false);
      throw std::runtime_error(reason);
    }
  }
}

short DrawProcess::wait_for(short events) {
  for (;;) {
    const auto left =
        std::chrono::ceil<std::chrono::milliseconds>(deadline_ - std::chrono::steady_clock::now());
    if (left.count() <= 0) fail_late();
    pollfd p{fd_, events, 0};
    const int ready = ::poll(&p, 1, static_cast<int>(std::min<long long>(left.count(), 60'000)));
    if (ready > 0) return p.revents;
    if (ready < 0 && errno != EINTR)
      throw std::runtime_error(system_error("cannot wait for " + program_, errno));
  }
}

int DrawProcess::stop(bool kill_now) {
  if (fd_ >= 0) {
    ::shutdown(fd_, SHUT_WR);  // ibpm-draw reads the end of its input and exits
    ::close(fd_);
    fd_ = -1;
  }
  int status = 0;
  if (pid_ <= 0) return status;
  if (kill_now) ::kill(pid_, SIGKILL);
  // Polled, not waited on: a program that does not exit at the end of its input is killed at the
  // deadline rather than waited for without end.
  for (;;) {
    const pid_t done = ::waitpid(pid_, &status, WNOHANG);
    if (done == pid_ || (done < 0 && errno != EINTR)) break;
    if (done == 0 && std::chrono::steady_clock::now() >= deadline_) {
      ::kill(pid_, SIGKILL);
      while (::waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
      }
      break;
    }
    if (done == 0) std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  pid_ = -1;
  return status;
}

void DrawProcess::fail_exited() {
  pending_.clear();
  const int status = stop(false);
  std::string how = "ended";
  if (WIFEXITED(status)) how = "exited with status " + std::to_string(WEXITSTATUS(status));
  if (WIFSIGNALED(status)) how = "was killed by signal " + std::to_string(WTERMSIG(status));
  throw std::runtime_error(program_ + " " + how + " before drawing every map");
}

void DrawProcess::fail_late() {
  const pid_t pid = pid_;
  stop(true);
  char limit[32];
  std::snprintf(limit, sizeof limit, "%g", static_cast<double>(limit_.count()) / 1000);
  std::string what = program_ + " (pid " + std::to_string(pid) + ") had not drawn every map " +
                     limit + " s after the first (-t): killed";
  if (!pending_.empty())
    what += "; not drawn: " + pending_.front() +
            (pending_.size() > 1 ? " and " + std::to_string(pending_.size() - 1) + " more" : "");
  pending_.clear();
  throw std::runtime_error(what);
}

}  // namespace ibpm::viz
