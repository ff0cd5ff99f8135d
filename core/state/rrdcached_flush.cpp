// SPDX-License-Identifier: MIT

#include <algorithm>

#include "state/archive_rows.hpp"
#include "state/rrd_backend.hpp"
#include "state/rrdcached_pipeline.hpp"
#include "state/state_error.hpp"

namespace ibpm::state {

namespace {

// A FLUSH answers once its file is written, so each connection has one file in the daemon's
// write threads at a time: as many connections as it has write threads by default (4; more only
// made them wait on each other here), one for a few hundred files.
std::size_t flush_connections(std::size_t count) {
  return std::clamp<std::size_t>(count / 256, 1, 4);
}

}  // namespace

void flush_files(const std::string& address, std::size_t count,
                 const std::function<void(std::size_t, std::string&)>& name_of,
                 const std::function<void(std::size_t, const FlushResult&)>& on_flushed,
                 std::chrono::steady_clock::time_point deadline) {
  if (count == 0) return;
  in_slices(count, flush_connections(count), [&](std::size_t begin, std::size_t end) {
    pipeline(
        address, end - begin,
        [&](std::size_t c, std::string& out) {
          out += "FLUSH ";
          std::string name;
          name_of(begin + c, name);
          append_daemon_escaped(out, name);
        },
        [&](std::size_t c, const DaemonAnswer& answer) {
          FlushResult result;
          if (answer.status < 0 && says_missing(answer.message))
            result.missing = true;
          else if (answer.status < 0)
            result.error = "cannot flush through rrdcached: " + answer.message;
          on_flushed(begin + c, result);
        },
        deadline);
  });
}

}  // namespace ibpm::state
