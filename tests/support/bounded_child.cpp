// fork, setrlimit(RLIMIT_AS) and alarm around one call; the child reports through a pipe.
#include "support/bounded_child.hpp"

#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstring>
#include <exception>
#include <fstream>
#include <new>
#include <stdexcept>

#if defined(__SANITIZE_ADDRESS__)
#define IBPM_TEST_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define IBPM_TEST_ASAN 1
#endif
#endif

namespace ibpm::test {
namespace {

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
  std::string message;
  char buffer[512];
  for (ssize_t n; (n = ::read(fds[0], buffer, sizeof buffer)) != 0;) {
    if (n < 0) break;
    message.append(buffer, static_cast<std::size_t>(n));
  }
  ::close(fds[0]);
  int status = 0;
  ::waitpid(pid, &status, 0);
  ChildOutcome outcome;
  outcome.message = message;
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
    outcome.kind = ChildOutcome::Kind::returned;
  else if (WIFEXITED(status) && WEXITSTATUS(status) == 1)
    outcome.kind = ChildOutcome::Kind::threw;
  else if (WIFSIGNALED(status))
    outcome.message = ::strsignal(WTERMSIG(status));
  return outcome;
}

}  // namespace ibpm::test
