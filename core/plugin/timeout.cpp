// SPDX-License-Identifier: MIT

#include "plugin/timeout.hpp"

#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <system_error>

namespace ibpm::plugin {
namespace {

// Filled before the alarm is armed and read only by the handler.
char g_message[4096];
std::size_t g_length = 0;
struct sigaction g_previous;

void on_alarm(int) {
  const char* data = g_message;
  std::size_t left = g_length;
  while (left > 0) {
    const ssize_t written = ::write(STDOUT_FILENO, data, left);
    if (written > 0) {
      data += written;
      left -= static_cast<std::size_t>(written);
    } else if (written < 0 && errno == EINTR) {
      continue;
    } else {
      break;
    }
  }
  ::_exit(3);
}

}  // namespace

Timeout::Timeout(unsigned seconds, std::string_view message) {
  if (seconds == 0) return;
  g_length = std::min(message.size(), sizeof g_message - 1);
  std::memcpy(g_message, message.data(), g_length);

  struct sigaction action {};
  action.sa_handler = on_alarm;
  sigemptyset(&action.sa_mask);
  if (::sigaction(SIGALRM, &action, &g_previous) != 0)
    throw std::system_error(errno, std::generic_category(), "cannot install the timeout handler");
  // A signal mask inherited from the parent must not keep the alarm from arriving.
  sigset_t alarm_only;
  sigemptyset(&alarm_only);
  sigaddset(&alarm_only, SIGALRM);
  ::pthread_sigmask(SIG_UNBLOCK, &alarm_only, nullptr);
  ::alarm(seconds);
  armed_ = true;
}

Timeout::~Timeout() {
  if (!armed_) return;
  ::alarm(0);
  ::sigaction(SIGALRM, &g_previous, nullptr);
}

}  // namespace ibpm::plugin
