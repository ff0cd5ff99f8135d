// SPDX-License-Identifier: MIT

#include "state/rrd_lock_wait.hpp"

#include <rrd.h>

#include <chrono>
#include <cstring>
#include <thread>

namespace ibpm::state {

bool retry_while_locked(const std::function<bool()>& attempt) {
  constexpr int kTries = 200;
  for (int tries = 1;; ++tries) {
    rrd_clear_error();
    if (attempt()) return true;
    const char* reason = rrd_get_error();
    if (tries == kTries || !reason || !std::strstr(reason, kLockedByOther)) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
}

}  // namespace ibpm::state
