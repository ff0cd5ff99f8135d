// SPDX-License-Identifier: MIT
// The plugin timeout (-t): the one place where library code ends the process.
#pragma once

#include <string_view>

namespace ibpm::plugin {

// While a Timeout is alive, SIGALRM after `seconds` writes `message` to stdout with
// write(2) and ends the process with _exit(3) (UNKNOWN). alarm() interrupts a body that
// is blocked in a system call (a MAD that never answers, a stuck file system), where a
// flag polled by the body would never be seen; and only async-signal-safe calls are
// allowed in the handler, hence the pre-rendered message and _exit (no destructors, no
// stdio flush: whatever the body buffered is dropped on purpose).
//
// 0 seconds means no timeout. Only one Timeout may be alive at a time. The message is
// cut at 4095 bytes. Throws std::system_error if the handler cannot be installed. The
// destructor cancels the alarm and restores the previous handler.
class Timeout {
 public:
  Timeout(unsigned seconds, std::string_view message);
  ~Timeout();
  Timeout(const Timeout&) = delete;
  Timeout& operator=(const Timeout&) = delete;

 private:
  bool armed_ = false;
};

}  // namespace ibpm::plugin
