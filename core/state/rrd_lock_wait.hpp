// SPDX-License-Identifier: MIT
// librrd takes its file locks without waiting (fcntl F_SETLK): a read (rrd_fetch, read lock) fails
// while the file is being written, and an update (write lock) fails while another process reads
// or writes it; rrdcached's write threads, a sweep writing the files and a report reading them
// meet that way. Nothing is changed by a call that could not lock, so it may simply be made again:
// a write takes well under a millisecond.
#pragma once

#include <functional>

namespace ibpm::state {

// librrd's reason for a file another process has locked.
inline constexpr const char* kLockedByOther = "could not lock RRD";

// Runs attempt() (true: done; false: failed with librrd's error set) again, a millisecond apart,
// while it fails on another process's lock, 200 times at most. Returns its last result, librrd's
// error left set when false.
bool retry_while_locked(const std::function<bool()>& attempt);

}  // namespace ibpm::state
