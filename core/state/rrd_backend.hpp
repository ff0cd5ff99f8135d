// SPDX-License-Identifier: MIT
// The three operations the store needs on one file: create, update, read the header. Files are
// written directly through librrd, or through an rrdcached daemon that batches the writes, spoken
// to by the project's own client (state/rrdcached_pipeline.hpp), every exchange bounded in time.
// The daemon's INFO answers from the file as it is on disk, so a read through the daemon first
// flushes that file's pending updates (one write of that file, not of the whole cache).
#pragma once

#include <chrono>
#include <ctime>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ibpm::state {

struct SourceHeader {
  unsigned long index = 0;
  std::string type;     // "DERIVE", "GAUGE", ...
  std::string last_ds;  // the last value written, as written ("U" when unknown)
};

struct RrdHeader {
  unsigned long step = 0;
  std::optional<std::time_t> last_update;  // the file's last update time, when the header says it
  std::map<std::string, SourceHeader, std::less<>> sources;
};

// One item of a file's header as librrd's info lists it ("step", "last_update", "ds[NAME].index",
// "ds[NAME].type", "ds[NAME].last_ds"), a count or a text, added to `header`; other items are
// ignored. The one reading of those keys, for librrd's own answer and rrdcached's INFO text alike.
void add_header_count(RrdHeader& header, std::string_view key, unsigned long value);
void add_header_text(RrdHeader& header, std::string_view key, std::string_view value);

// The daemon's (or librrd's) reason for a file it does not have ("No such file: PATH",
// "opening 'PATH': No such file or directory").
bool says_missing(const std::string& reason);

class RrdBackend {
 public:
  // Empty address: the files are read and written directly. Through the daemon every exchange
  // ends within `timeout` (one call's, not the run's), or throws StateError.
  explicit RrdBackend(std::string daemon_address,
                      std::chrono::milliseconds timeout = std::chrono::seconds(30));
  bool uses_daemon() const { return !daemon_.empty(); }
  const std::string& daemon_address() const { return daemon_; }

  // All throw StateError("PATH: reason").
  RrdHeader info(const std::string& path) const;
  // As info(), but nullopt when there is no such file (asked of the daemon when there is one).
  std::optional<RrdHeader> info_if_present(const std::string& path) const;
  // Whether the file is there, asked of the daemon when there is one.
  bool present(const std::string& path) const;
  // Makes the file unless one is already there (another run's file is kept, not replaced). Other
  // runs never see a partial file: it is made under a temporary name and linked into place (the
  // daemon does the same through librrd's own temporary file and rename).
  void create(const std::string& path, const std::vector<std::string>& definitions,
              unsigned long step, std::time_t last_update) const;
  void update(const std::string& path, const std::string& line) const;
  // Writes the daemon's pending updates of the file, so that a direct read sees them (no-op
  // without a daemon).
  void flush(const std::string& path) const;

 private:
  std::string daemon_;
  std::chrono::milliseconds timeout_;
};

}  // namespace ibpm::state
