// SPDX-License-Identifier: MIT
// Many RRD updates through rrdcached in one exchange: the daemon's BATCH command on one
// connection, every "UPDATE FILE VALUES" line written in a few large writes, and one answer for
// all of them (the count of errors and the line number and reason of each). librrd's client
// sends one update per round trip; a sweep of thousands of ports needs one round trip in all.
// The same for the last update times of many files (LAST, pipelined).
#pragma once

#include <chrono>
#include <ctime>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "state/rrd_backend.hpp"
#include "state/rrdcached_connection.hpp"

namespace ibpm::state {

struct BatchUpdate {
  std::string path;  // as the daemon sees it (absolute for a local daemon)
  std::string line;  // "TIME:V1:...:Vn"
};

// Sends every update in one BATCH. Returns the failed ones as (index into `updates`, the
// daemon's reason). Throws StateError("rrdcached at ADDRESS: reason") when the daemon cannot be
// reached or the exchange breaks off, in which case none of the updates can be trusted to have
// been taken. `address` is what rrdcached's -l takes: "unix:/path", "/path", "host" or
// "host:port" (42217 by default). Nothing waits past `timeout`.
std::vector<std::pair<std::size_t, std::string>> batch_update(
    const std::string& address, const std::vector<BatchUpdate>& updates,
    std::chrono::milliseconds timeout = std::chrono::seconds(30));

// The same for `count` updates, update_at(k, update) filling `update` (given empty, with the room
// of the one before) with update k as it is sent: the updates are never all held at once (for
// thousands of ports, their paths and lines would cost some 200 bytes each), nor made in strings
// of their own.
using FillUpdate = std::function<void(std::size_t, BatchUpdate&)>;
std::vector<std::pair<std::size_t, std::string>> batch_update(
    const std::string& address, std::size_t count, const FillUpdate& update_at,
    std::chrono::milliseconds timeout = std::chrono::seconds(30));

// The last update time of each file as rrdcached's LAST answers it (rounded down to the file's
// step), asked in one exchange (LAST commands sent together, the answers read in order; for
// more than a few thousand files, a few such exchanges side by side): nullopt for a file the daemon
// cannot read (missing). Throws StateError("rrdcached at ADDRESS: reason") when the daemon cannot
// be reached.
std::vector<std::optional<std::time_t>> last_updates(
    const std::string& address, const std::vector<std::string>& paths,
    std::chrono::milliseconds timeout = std::chrono::seconds(30));

// The last of each file's updates the daemon holds in its cache, not yet written to the file
// (PENDING, answered from the daemon's memory), for the `count` files that name_of(i, name) names
// (appending file i's name, as the daemon sees it, to `name`: no string per file, a sweep asks
// every port's): on_pending(i, line) in order, with the update's text as it was sent
// ("TIME:V1:...:Vn", valid during the call) or nullopt when none is pending (or the daemon cannot
// say). Throws StateError("rrdcached at ADDRESS: reason") when the daemon cannot be reached, the
// deadline passes or the exchange breaks off.
void daemon_pending(
    const std::string& address, std::size_t count,
    const std::function<void(std::size_t, std::string&)>& name_of,
    const std::function<void(std::size_t, std::optional<std::string_view>)>& on_pending,
    DaemonConnection::Deadline deadline);

// The header of each file as the daemon's INFO gives it, after a FLUSH of that file (INFO reads
// the file on disk), all in one exchange: on_header(i, header, error) in order, with header
// nullopt and error "" for a file the daemon does not have. Throws StateError("rrdcached at
// ADDRESS: reason") when the daemon cannot be reached or the exchange breaks off.
void daemon_infos(const std::string& address, std::span<const std::string> paths,
                  const std::function<void(std::size_t, const std::optional<RrdHeader>&,
                                           const std::string&)>& on_header,
                  std::chrono::milliseconds timeout = std::chrono::seconds(30));

}  // namespace ibpm::state
