// SPDX-License-Identifier: MIT
// librrd takes its file locks without waiting (fcntl F_SETLK): a read (rrd_fetch, read lock) fails
// while the file is being written, and an update (write lock) fails while another process reads
// or writes it; rrdcached's write threads, a sweep writing the files and a report reading them
// meet that way. Nothing is changed by a call that could not lock, so it may simply be made again:
// a write takes well under a millisecond.
#pragma once

namespace ibpm::state {

// librrd's reason for a file another process has locked.
inline constexpr const char* kLockedByOther = "could not lock RRD";

// Clears librrd's error before an attempt.
void clear_rrd_error();
// After failed attempt number `tries`: when librrd says another process holds the file and
// tries are left (200 in all), waits a millisecond and returns true (try again).
bool wait_if_locked(int tries);

// Runs attempt() (true: done; false: failed with librrd's error set) again while it fails on
// another process's lock. Returns its last result, librrd's error left set when false. A template,
// not a std::function: it runs once per port file on the sweep's direct path.
template <class Attempt>
bool retry_while_locked(Attempt&& attempt) {
  for (int tries = 1;; ++tries) {
    clear_rrd_error();
    if (attempt()) return true;
    if (!wait_if_locked(tries)) return false;
  }
}

}  // namespace ibpm::state
