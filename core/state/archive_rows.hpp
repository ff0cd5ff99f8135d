// SPDX-License-Identifier: MIT
// The rows of one RRD archive over a time range, read from a port's file on this host (librrd's
// fetch, after a local rrdcached's FLUSH) or asked of rrdcached (FETCH, pipelined for many files).
// The store's side of reading history: what the rows mean is core/history's.
#pragma once

#include <chrono>
#include <ctime>
#include <functional>
#include <string>
#include <vector>

namespace ibpm::state {

struct FetchedRows {
  std::time_t start = 0, end = 0;
  unsigned long step = 0;
  std::size_t sources = 0;
  std::vector<std::string> names;
  std::vector<double> values;  // row by row, `sources` values each

  std::size_t rows() const { return step ? static_cast<std::size_t>((end - start) / step) : 0; }
  // Row r covers (start + r*step, start + (r+1)*step].
  double value(std::size_t row, std::size_t source) const { return values[row * sources + source]; }
};

// How a file's own read failure is said: "PATH: cannot read its history: REASON".
inline constexpr const char* kCannotReadHistory = ": cannot read its history: ";

// Throws StateError naming `file` unless the rows have our data sources in our order.
void check_sources(const std::string& file, const FetchedRows& rows);

// rrd_fetch rounds the end up to the next step boundary, and a boundary up by a whole step: the
// fetch's end for a range that ends at `end` (one second less), so that a range ending on a
// boundary reads no row after it.
std::time_t fetch_end(std::time_t start, std::time_t end);

// The consolidation function `cf`'s rows of the file covering [start, end], read directly.
// Throws StateError("PATH: cannot read its history: REASON"), or naming a foreign file.
FetchedRows read_archive(const std::string& path, const char* cf, std::time_t start,
                         std::time_t end);
// The same for any RRD file, whatever its data sources (the caller checks them).
FetchedRows read_any_archive(const std::string& path, const char* cf, std::time_t start,
                             std::time_t end);

// The same for `count` files through rrdcached at `address`, in pipelined exchanges over
// connections_for(count) connections side by side (name_of(i, out) appends file i's name as the
// daemon is told it): on_rows(i, rows) for each file the daemon has, on_error(i, reason) for each
// it could not read, nothing for a file it does not have; both are called from the connections'
// threads, each index once. When an exchange breaks off (the daemon unreachable, the deadline
// passed), every file it had not answered gets on_error with the exchange's reason. Each FETCH
// flushes its file's pending updates first (the daemon does). A file whose data sources are not a
// port file's is an error unless `sources` is any (the caller checks them).
enum class FetchSources { port, any };
void fetch_through_daemon(const std::string& address, std::size_t count,
                          const std::function<void(std::size_t, std::string&)>& name_of,
                          const char* cf, std::time_t start, std::time_t end,
                          const std::function<void(std::size_t, FetchedRows&&)>& on_rows,
                          const std::function<void(std::size_t, const std::string&)>& on_error,
                          std::chrono::steady_clock::time_point deadline,
                          FetchSources sources = FetchSources::port);

// Before a local daemon's files are read directly: writing its pending updates of many files (the
// way rrdtool's own tools read a daemon's files on its host: FLUSH, then the file). A FLUSH puts
// its file at the head of the daemon's write queue and answers once the file is written; FLUSHes
// pipelined over several connections keep the daemon's write threads busy side by side, and the
// reader reads each file as its answer comes, while the daemon writes the next.
// Not FLUSHALL: it hands every pending file to the write threads at once, and a FLUSH of a file
// whose write is under way then answers before the write is done (the daemon sees nothing
// pending), so the file would be read without its last updates.
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
                 std::chrono::steady_clock::time_point deadline);

}  // namespace ibpm::state
