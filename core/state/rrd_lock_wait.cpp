// SPDX-License-Identifier: MIT

#include "state/rrd_lock_wait.hpp"

#include <rrd.h>

#include <chrono>
#include <cstring>
#include <thread>

namespace ibpm::state {

void clear_rrd_error() { rrd_clear_error(); }

bool wait_if_locked(int tries) {
  constexpr int kTries = 200;
  const char* reason = rrd_get_error();
  if (tries >= kTries || !reason || !std::strstr(reason, kLockedByOther)) return false;
  std::this_thread::sleep_for(std::chrono::milliseconds(1));
  return true;
}

}  // namespace ibpm::state
