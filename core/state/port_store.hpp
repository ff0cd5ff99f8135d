// SPDX-License-Identifier: MIT
// Per-port state: one RRD file per port, named by node GUID and port number (never by
// description, which operators rename): STATE_DIR/0x0002c90300a1b2c3/port12.rrd. A run reads what
// the previous run left (the exact last raw counters, from the file's header), polls, and writes
// the new sample; RRD turns the raw counters into the rate history for graphs.
//
// The naming rule, in one place (rrd_name): written directly or through a local rrdcached (a unix
// socket), a file is named by its path, STATE_DIR/0xGUID/portN.rrd. Through rrdcached over TCP
// (a central store, possibly on another host) it is named relative to the daemon's base
// directory (rrdcached -b DIR -B -R), 0xGUID/portN.rrd: the daemon creates, updates and reads it,
// and STATE_DIR holds only what stays with the collector (sample records, node locks). On the
// store's host the files are then DIR/0xGUID/portN.rrd, which the analyzer reads with
// --state-dir DIR.
#pragma once

#include <array>
#include <chrono>
#include <ctime>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "fabric/fabric.hpp"
#include "fabric/types.hpp"
#include "layout/state_layout.hpp"
#include "state/archive_rows.hpp"
#include "state/daemon_address.hpp"
#include "state/node_locks.hpp"
#include "state/port_record.hpp"
#include "state/rrd_backend.hpp"
#include "state/rrd_layout.hpp"
#include "state/state_error.hpp"
#include "state/store_options.hpp"

namespace ibpm::state {

// How far a stored sample may be ahead of this host's clock and still count as the past (two
// hosts' clocks, or one clock corrected by a fraction of a second). Anything later is a clock that
// stepped back, or a sample from the future put into a shared store.
inline constexpr double kClockToleranceSeconds = 2;

// The current time, epoch seconds.
double wall_clock_now();

// "FILE: last update N s ahead of the clock": RRD refuses every update not after a file's last
// one, so nothing can be written to that file until the clock gets there.
std::string ahead_of_clock(const std::string& file, double last_update, double now);

class PortStore {
 public:
  // Throws std::invalid_argument for a layout RRD cannot hold (see validate()).
  explicit PortStore(StoreOptions options);

  // The file on this host: STATE_DIR/0xGUID/portN.rrd.
  std::string path(Guid node, PortNumber port) const;
  std::string node_dir(Guid node) const;
  // The file as the RRD backend is told (see the naming rule above): path(), or relative to the
  // central store's base directory.
  std::string rrd_name(Guid node, PortNumber port) const;
  // rrd_name appended to `name` (no string of its own: a sweep names every port's file).
  void append_rrd_name(std::string& name, Guid node, PortNumber port) const;
  bool uses_daemon() const { return backend_.uses_daemon(); }
  // The daemon's address (the configured one or RRDCACHED_ADDRESS; empty: none).
  const std::string& daemon_address() const { return backend_.daemon_address(); }
  // Writes the daemon's pending updates of the port's file, so that a direct read sees them
  // (no-op without a daemon). Throws StateError.
  void flush(Guid node, PortNumber port) const { backend_.flush(rrd_name(node, port)); }
  // Files live in a central store reached over TCP: never looked at on this host.
  bool central_store() const { return central_; }
  const std::string& state_dir() const { return options_.state_dir; }
  const RrdLayout& layout() const { return options_.layout; }

  // Exclusive locks on the nodes' state, held while a run reads the previous samples, polls and
  // writes the new ones, so that runs on the same node serialize (see node_locks.hpp: one open
  // file whatever the number of nodes). Waits until `deadline`, then throws StateError.
  NodeLocks lock_nodes(const std::vector<Guid>& nodes,
                       std::chrono::steady_clock::time_point deadline,
                       const std::vector<Guid>& known = {}) const;

  // What the previous run left: nullopt when there is no file or it holds no sample yet. raw[i]
  // is the exact last raw reading, or counter_max of its width when its bit is set in
  // `saturated`, or nullopt. Throws StateError naming the path when the file is unreadable,
  // corrupt (not an RRD) or foreign (not an ibpm port RRD: other data sources or another step),
  // and when its last update or sample is later than `now` + kClockToleranceSeconds (see
  // ahead_of_clock: the clock stepped back, or someone stored a sample dated in the future).
  std::optional<PortRecord> read(Guid node, PortNumber port) const;
  std::optional<PortRecord> read(Guid node, PortNumber port, double now) const;

  // read() of many ports, each port's failure its own: through a daemon in pipelined exchanges
  // (a PENDING per file, then a FLUSH and an INFO per file that has no update pending; a few
  // round trips in all), else file by file. A daemon that cannot be reached, or does not answer
  // within `timeout`, is every unread port's error.
  struct ReadResult {
    std::optional<PortRecord> record;
    std::string error;  // "" when read (or when there is no file)
    // The error is the daemon's, not the file's: it could not be reached or did not answer in
    // time (every port it cost says the same).
    bool store_failed = false;
  };
  std::vector<ReadResult> read_all(
      const std::vector<PortRef>& ports, double now,
      std::chrono::milliseconds timeout = std::chrono::seconds(30)) const;

  // The central store's last update time of each port's file, rounded down to the file's step
  // (nullopt: no file), as LAST answers it: from the last update PENDING lists, else from LAST
  // (files with nothing pending), in one exchange of each. Only for a central store; throws
  // StateError.
  std::vector<std::optional<std::time_t>> last_updates(
      const std::vector<PortRef>& ports,
      std::chrono::milliseconds timeout = std::chrono::seconds(30)) const;

  // Creates the file when missing (never visible half-written; when another run made it first,
  // theirs is used), then adds the record. Throws StateError naming the path; an update whose
  // time is not after the file's last update is refused.
  void write(Guid node, PortNumber port, const PortRecord& record) const;

  // Many records at once, in order (a port may have several, oldest first). `exists`: the file
  // is known to be there (a record of the last run says so), which saves looking. Through
  // rrdcached every update goes in one BATCH; without it the files are updated one at a time.
  // Returns, per write, why it failed ("" when written, or in a central store when another
  // collector stored a later sample of the port first: the history misses nothing). A refusal
  // because the file's last update is later than `now` + kClockToleranceSeconds is always a
  // failure (ahead_of_clock), in a central store too: a sample dated in the future is nobody's
  // later sample, and would silence the port for as long as it stays ahead. `timeout` bounds the
  // BATCH through the daemon.
  struct Write {
    Guid node = 0;
    PortNumber port = 0;
    const PortRecord* record = nullptr;
    bool exists = false;
  };
  // What write_all has to say beyond each write's error, for those who ask.
  struct WriteNotes {
    // The daemon could not be reached or did not answer the BATCH in time: why, once, and the
    // writes it cost (their errors say it too, each with its file).
    std::string store_failure;
    std::vector<std::size_t> store_failed;
    // Updates refused because the file held a later sample, not in the future: dropped as another
    // collector's (no error). Which writes, and the file's last update for each.
    std::vector<std::size_t> overtaken;
    std::vector<double> overtaken_by;
  };
  std::vector<std::string> write_all(const std::vector<Write>& writes,
                                     std::chrono::milliseconds timeout = std::chrono::seconds(30),
                                     WriteNotes* notes = nullptr) const;

  // Per-subtree traffic sums (aggregate_store.cpp): each sweep scope ("fabric", "shard-K-of-N")
  // writes, once per run, one file per subtree with the sums of the rates of the ports it polled,
  // STATE_DIR/aggregates/SCOPE/NAME.rrd (relative to a central store's base folder, as the port
  // files), GAUGEs of the AggregateSource order, with the port files' step and archives.
  std::string aggregate_path(const std::string& scope, const std::string& name) const;
  std::string aggregate_rrd_name(const std::string& scope, const std::string& name) const;
  struct AggregateWrite {
    std::string name;  // the subtree's file name (safe for a file name)
    std::array<double, kAggregateSourceCount> values{};
  };
  // One update at `time` of each subtree's file of `scope`, made when missing. Returns why each
  // failed ("" when written); the store failing as a whole fails every write with its reason.
  std::vector<std::string> write_aggregates(
      const std::string& scope, double time, const std::vector<AggregateWrite>& writes,
      std::chrono::milliseconds timeout = std::chrono::seconds(30)) const;
  // The scopes that have aggregate folders, sorted: on this host, or as a central store lists them
  // (LIST, one exchange; throws StateError when the daemon does not allow it).
  std::vector<std::string> aggregate_scopes(
      std::chrono::milliseconds timeout = std::chrono::seconds(30)) const;
  // The `cf` rows over [start, end] of count aggregate files (name_of(i) gives file i's scope and
  // name): on_rows(i, rows) for each file there, one call at a time, nothing for a file that is
  // not; through a local daemon its pending updates of the files are written first (one
  // pipelined exchange), through a central store the daemon reads them (FETCH, pipelined).
  // Throws StateError naming the file that cannot be read or is not an aggregate file.
  void read_aggregates(
      std::size_t count,
      const std::function<std::pair<const std::string*, const std::string*>(std::size_t)>& name_of,
      const char* cf, std::time_t start, std::time_t end,
      const std::function<void(std::size_t, FetchedRows&&)>& on_rows,
      std::chrono::milliseconds timeout = std::chrono::seconds(30)) const;

 private:
  std::vector<std::string> central_aggregate_scopes(std::chrono::milliseconds timeout) const;
  void create_if_missing(Guid node, PortNumber port, const PortRecord& first) const;
  // An update of a file the last run wrote failed: when the file is gone, makes it again and
  // updates it (true); false when it is there (the failure stands). Throws StateError.
  bool made_again(const Write& w, const std::string& file, const std::string& line) const;
  // The previous sample a header describes (nullopt: never updated); throws StateError as read().
  std::optional<PortRecord> record_from(const std::string& file, const RrdHeader& header,
                                        double now) const;
  // The same from the last sources' values and the update's time.
  std::optional<PortRecord> record_from(const std::string& file,
                                        const std::array<std::string, kSourceCount>& last,
                                        std::optional<double> last_update, double now) const;
  // The previous sample an update line still in the daemon's cache holds ("TIME:V1:...:Vn", as
  // PENDING lists it); nullopt when it is not a line of this layout (the file is read instead).
  std::optional<PortRecord> record_from_pending(const std::string& file, std::string_view line,
                                                double now) const;
  // Whether the file (an rrd_name) is there: on this host, or asked of the central store.
  bool present(const std::string& file) const;

  StoreOptions options_;
  layout::StateLayout files_{""};  // options_.state_dir's (one copy of its name, not one a port)
  RrdBackend backend_;
  bool central_ = false;
};

}  // namespace ibpm::state
