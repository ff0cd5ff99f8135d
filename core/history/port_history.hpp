// SPDX-License-Identifier: MIT
// What the RRD history says about a port over a time window: the average and peak rate of every
// counter (from the files' AVERAGE and MAX archives, at the finest resolution that covers the
// window). This is the analyzer's only view of the counters: it never polls.
#pragma once

#include <array>
#include <chrono>
#include <ctime>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "counters/counter.hpp"
#include "fabric/types.hpp"
#include "state/archive_rows.hpp"
#include "state/port_store.hpp"

namespace ibpm::history {

struct Window {
  std::time_t start = 0;  // epoch seconds
  std::time_t end = 0;
  std::time_t seconds() const { return end - start; }
};

// The last `seconds` up to now.
Window window_ending_now(std::time_t seconds);

struct PortHistory {
  bool found = false;       // the port has an RRD file with at least one rate inside the window
  std::time_t covered = 0;  // seconds of the window with a rate (rows known x step)
  std::time_t step = 0;     // the RRD step of the rows read (0: nothing read)
  // Per second, in counter units (data counters in 4-octet words). nullopt: no rate in the window.
  std::array<std::optional<double>, counters::kCounterCount> average{};
  std::array<std::optional<double>, counters::kCounterCount>
      peak{};  // highest step average (MAX archive)
  // Some row's sample had the 32-bit PortXmitWait at its maximum (an agent without the 64-bit
  // one): its rate there is unknown, not zero, and the port waited.
  bool xmit_wait_saturated = false;

  // The rows themselves, for an analysis that judges the ports row by row (the congestion trees:
  // a port waiting in a row whose downstream port was full in that same row). Kept only when
  // the reader is asked to (HistoryReader::keep_rows); the rates per second, NaN where unknown.
  struct Rows {
    std::time_t start = 0;  // row r covers (start + r*step, start + (r+1)*step]
    std::time_t step = 0;
    std::vector<float> xmit_data, rcv_data, xmit_wait;
    std::vector<bool> xmit_wait_saturated;  // empty when no row's was
    std::size_t size() const { return xmit_data.size(); }
  };
  Rows rows;

  std::optional<double> average_of(counters::Counter c) const {
    return average[static_cast<std::size_t>(c)];
  }
  std::optional<double> peak_of(counters::Counter c) const {
    return peak[static_cast<std::size_t>(c)];
  }
};

class HistoryReader {
 public:
  // rrdcached: as StoreOptions::rrdcached (empty: RRDCACHED_ADDRESS when set, else direct reads).
  // Through the daemon, each file is flushed before it is read.
  // `timeout` bounds each read_all() through the daemon.
  HistoryReader(std::string state_dir, std::string rrdcached = {},
                std::chrono::milliseconds timeout = std::chrono::seconds(300));
  // The run's store, built once (its address and RRDCACHED_ADDRESS read once), read through.
  explicit HistoryReader(state::PortStore store,
                         std::chrono::milliseconds timeout = std::chrono::seconds(300));

  // The store the histories are read from: the ports' last samples are read through it too.
  const state::PortStore& store() const { return store_; }

  // Every read after this keeps each port's rows (PortHistory::rows) as well as its averages.
  void keep_rows(bool keep = true) { keep_rows_ = keep; }

  std::string path(Guid node, PortNumber port) const;
  // A port never polled gives found = false; a file that is not an ibpm port RRD throws
  // state::StateError naming it. Through a central store (its files need not be on this host)
  // it is read_all() of the one port.
  // Without peaks only the AVERAGE archive is read and peak[] stays empty. With them, the MAX
  // archive is read only where the window's rows are consolidated (an hour or a day each): in
  // full-resolution rows MAX and AVERAGE are the same.
  PortHistory read(Guid node, PortNumber port, const Window& window, bool peaks = true) const;

  // read() of many ports, each port's failure its own (`error` names the file and the port's
  // history is then empty). Without a daemon: the files read by several threads at once, in path
  // order. Through a local daemon (unix socket): each file's pending updates flushed (a
  // pipelined FLUSH of each over a few connections), the file read once its FLUSH is answered.
  // Through a central store (TCP: the files need not be on this host): one pipelined exchange of
  // FETCH commands (each flushes its file first), a few round trips for thousands of ports.
  struct Read {
    PortHistory history;
    std::string error;
  };
  std::vector<Read> read_all(const std::vector<PortRef>& ports, const Window& window,
                             bool peaks = true) const;

 private:
  // A local daemon (a unix socket: its files are this host's, named by their paths): the files'
  // pending updates flushed in one exchange, then the files read directly, as without a daemon.
  std::vector<Read> read_flushed_files(const std::vector<PortRef>& ports, const Window& window,
                                       bool peaks) const;
  std::vector<Read> read_through_daemon(const std::vector<PortRef>& ports, const Window& window,
                                        bool peaks) const;
  // The `cf` rows of ports[which[k]] through the daemon: on_rows(i, rows) for each port i that
  // has a file; a port the daemon could not read gets its reason in reads[i].
  void fetch_rows(const std::vector<PortRef>& ports, const std::vector<std::size_t>& which,
                  const char* cf, const Window& window,
                  std::chrono::steady_clock::time_point deadline, std::vector<Read>& reads,
                  const std::function<void(std::size_t, state::FetchedRows&&)>& on_rows) const;
  std::vector<Read> read_files(const std::vector<PortRef>& ports, const Window& window,
                               bool peaks) const;
  // One file read directly; its failure in Read::error.
  Read read_file(const std::string& file, const Window& window, bool peaks) const;
  // The ports' files, and their indices in path order (a node's ports, and nodes made one after
  // the other, lie close on the disk).
  struct FileOrder {
    std::vector<std::string> paths;
    std::vector<std::size_t> order;
  };
  FileOrder in_path_order(const std::vector<PortRef>& ports) const;

  state::PortStore store_;
  std::chrono::milliseconds timeout_;
  bool keep_rows_ = false;
};

}  // namespace ibpm::history
