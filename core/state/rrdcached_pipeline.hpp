// SPDX-License-Identifier: MIT
// Many rrdcached commands in one exchange on one connection: the commands written while the
// answers are read, in order, as they come. A read of thousands of files costs one round trip
// instead of one or two per file (what librrd's client does).
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "state/rrdcached_connection.hpp"

namespace ibpm::state {

struct DaemonAnswer {
  int status = -1;                 // negative: the command failed
  std::string message;             // the text after the status
  std::vector<std::string> lines;  // the lines that follow a positive status
};

// What an exchange cost: the connections opened, the times the client had sent everything and
// could only wait for answers (one per exchange when the daemon keeps up), the commands sent and
// the reads that brought answers. Tests and benchmarks count these instead of timing.
struct ExchangeCount {
  std::size_t connections = 0;
  std::size_t round_trips = 0;
  std::size_t commands = 0;
  std::size_t reads = 0;
};

// Sends `count` commands (write_command(i, out) appends command i, without its newline, to out)
// and calls on_answer(i, answer) for each, in order. An answer larger than kMaxAnswer octets is
// an error. Throws StateError("rrdcached at ADDRESS: reason") when the daemon cannot be reached,
// the deadline passes or the exchange breaks off.
// keep_line: which lines of an answer go into DaemonAnswer::lines (every one when empty); the
// others are counted, not stored (an INFO is ~500 lines, of which a reader may need 70).
constexpr std::size_t kMaxAnswer = 64u << 20;
using LineFilter = std::function<bool(std::string_view)>;
ExchangeCount pipeline(const std::string& address, std::size_t count,
                       const std::function<void(std::size_t, std::string&)>& write_command,
                       const std::function<void(std::size_t, const DaemonAnswer&)>& on_answer,
                       DaemonConnection::Deadline deadline, const LineFilter& keep_line = {});

// What every exchange of this process cost so far (added up by pipeline()).
ExchangeCount& exchange_totals();

// Runs fn(begin, end) over `slices` contiguous parts of [0, count), each on a thread of its own,
// and returns when all are done (rethrowing the first exception). rrdcached serves each
// connection on a thread of its own, so a large read spread over a few connections keeps more of
// the daemon's and the client's cores busy.
void in_slices(std::size_t count, std::size_t slices,
               const std::function<void(std::size_t, std::size_t)>& fn);

// How many connections a read of `count` files is spread over: one for a few thousand files,
// up to four for more.
std::size_t connections_for(std::size_t count);

}  // namespace ibpm::state
