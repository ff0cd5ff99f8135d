// SPDX-License-Identifier: MIT
// Writing a local rrdcached's pending updates of many files before they are read directly (the
// way rrdtool's own tools read a daemon's files on its host: FLUSH, then the file). A FLUSH puts
// its file at the head of the daemon's write queue and answers once the file is written; FLUSHes
// pipelined over several connections keep the daemon's write threads busy side by side, and the
// reader reads each file as its answer comes, while the daemon writes the next.
// Not FLUSHALL: it hands every pending file to the write threads at once, and a FLUSH of a file
// whose write is under way then answers before the write is done (the daemon sees nothing
// pending), so the file would be read without its last updates.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "state/rrdcached_connection.hpp"

namespace ibpm::state {

struct FlushResult {
  bool missing = false;  // the daemon has no such file (and none on disk): no history, no error
  std::string error;     // the daemon's reason it could not flush the file ("" when flushed)
};

// Flushes `count` files (name_of(i, out) appends file i's name as the daemon is told it) through
// the daemon at `address`, over a few connections, in index order on each, and calls
// on_flushed(i, result) as each file's answer comes (from the connections' threads, so that the
// caller can read a file while the daemon writes the next). Throws StateError when the daemon
// cannot be reached or has not answered by `deadline` (the files not yet answered then have no
// call).
void flush_files(const std::string& address, std::size_t count,
                 const std::function<void(std::size_t, std::string&)>& name_of,
                 const std::function<void(std::size_t, const FlushResult&)>& on_flushed,
                 DaemonConnection::Deadline deadline);

}  // namespace ibpm::state
