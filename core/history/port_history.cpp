// SPDX-License-Identifier: MIT

#include "history/port_history.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <condition_variable>
#include <cstdlib>
#include <deque>
#include <functional>
#include <mutex>
#include <numeric>
#include <thread>

#include "history/fetched_rows.hpp"
#include "state/archive_rows.hpp"
#include "state/rrd_layout.hpp"
#include "state/state_error.hpp"

namespace ibpm::history {

namespace {

FetchedRows fetch(const std::string& path, const char* cf, const Window& window) {
  return state::read_archive(path, cf, window.start, window.end);
}

// ibpm's files consolidate only into rows of an hour and of a day (state/rrd_layout.hpp); their
// full-resolution step divides an hour. Rows shorter than an hour are primary rows, one sample
// interval each, where AVERAGE and MAX hold the same value: their peak is the largest AVERAGE
// row and the MAX archive need not be read (half the reads of a window inside the full-resolution
// day).
bool consolidated(const FetchedRows& rows) { return rows.step >= 3600; }

// The port's history from its AVERAGE rows, and the MAX rows when they differ (null: they do not).
PortHistory history_with_peaks(const FetchedRows& average, const FetchedRows* peak,
                               bool keep_rows) {
  return history_from(average, peak ? peak : &average, keep_rows);
}

bool exists(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0;
}

// Indices of files ready to be read, handed to reader threads as they come.
class ReadyFiles {
 public:
  void push(std::size_t i) {
    {
      const std::lock_guard<std::mutex> lock(mutex_);
      ready_.push_back(i);
    }
    wake_.notify_one();
  }
  // No more will come: pop() gives nullopt once the last is taken.
  void close() {
    {
      const std::lock_guard<std::mutex> lock(mutex_);
      closed_ = true;
    }
    wake_.notify_all();
  }
  std::optional<std::size_t> pop() {
    std::unique_lock<std::mutex> lock(mutex_);
    wake_.wait(lock, [&] { return !ready_.empty() || closed_; });
    if (ready_.empty()) return std::nullopt;
    const std::size_t i = ready_.front();
    ready_.pop_front();
    return i;
  }

 private:
  std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<std::size_t> ready_;
  bool closed_ = false;
};

// Threads for reading files directly: the disk's queue wants several reads in flight even on a
// machine of two cores, and librrd's fetch is reentrant.
unsigned reader_threads(std::size_t files) {
  const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  return static_cast<unsigned>(std::min<std::size_t>({files, std::max(4u, cores), 16}));
}

}  // namespace

Window window_ending_now(std::time_t seconds) {
  std::time_t now = std::time(nullptr);
  return {now - seconds, now};
}

HistoryReader::HistoryReader(std::string state_dir, std::string rrdcached,
                             std::chrono::milliseconds timeout)
    : HistoryReader(state::PortStore(state::StoreOptions{std::move(state_dir), rrdcached, {}}),
                    timeout) {}

HistoryReader::HistoryReader(state::PortStore store, std::chrono::milliseconds timeout)
    : store_(std::move(store)), timeout_(timeout) {}

std::string HistoryReader::path(Guid node, PortNumber port) const {
  return store_.path(node, port);
}

PortHistory HistoryReader::read(Guid node, PortNumber port, const Window& window,
                                bool peaks) const {
  if (store_.central_store()) {
    Read one = std::move(read_all({PortRef{node, port}}, window, peaks).front());
    if (!one.error.empty()) throw state::StateError(one.error);
    return std::move(one.history);
  }
  const std::string file = path(node, port);
  if (window.end <= window.start || !exists(file)) return {};
  store_.flush(node, port);
  const FetchedRows average = fetch(file, "AVERAGE", window);
  if (!peaks) return history_from(average, nullptr, keep_rows_);
  if (!consolidated(average)) return history_with_peaks(average, nullptr, keep_rows_);
  const FetchedRows peak = fetch(file, "MAX", window);
  return history_with_peaks(average, &peak, keep_rows_);
}

std::vector<HistoryReader::Read> HistoryReader::read_all(const std::vector<PortRef>& ports,
                                                         const Window& window, bool peaks) const {
  if (window.end <= window.start) return std::vector<Read>(ports.size());
  if (!store_.uses_daemon()) return read_files(ports, window, peaks);
  if (store_.central_store()) return read_through_daemon(ports, window, peaks);
  return read_flushed_files(ports, window, peaks);
}

std::vector<HistoryReader::Read> HistoryReader::read_files(const std::vector<PortRef>& ports,
                                                           const Window& window, bool peaks) const {
  std::vector<Read> reads(ports.size());
  const FileOrder files = in_path_order(ports);
  std::atomic<std::size_t> next{0};
  const auto work = [&] {
    for (std::size_t k; (k = next.fetch_add(1)) < files.order.size();) {
      const std::size_t i = files.order[k];
      reads[i] = read_file(files.paths[i], window, peaks);
    }
  };
  std::vector<std::jthread> threads;
  for (unsigned t = 1; t < reader_threads(ports.size()); ++t) threads.emplace_back(work);
  work();
  return reads;
}

HistoryReader::FileOrder HistoryReader::in_path_order(const std::vector<PortRef>& ports) const {
  FileOrder files;
  files.paths.resize(ports.size());
  files.order.resize(ports.size());
  for (std::size_t i = 0; i < ports.size(); ++i)
    files.paths[i] = path(ports[i].node, ports[i].port);
  std::iota(files.order.begin(), files.order.end(), std::size_t{0});
  std::sort(files.order.begin(), files.order.end(),
            [&](std::size_t a, std::size_t b) { return files.paths[a] < files.paths[b]; });
  return files;
}

HistoryReader::Read HistoryReader::read_file(const std::string& file, const Window& window,
                                             bool peaks) const {
  Read read;
  try {
    if (!exists(file)) return read;
    const FetchedRows average = fetch(file, "AVERAGE", window);
    if (!peaks) {
      read.history = history_from(average, nullptr, keep_rows_);
    } else if (!consolidated(average)) {
      read.history = history_with_peaks(average, nullptr, keep_rows_);
    } else {
      const FetchedRows peak = fetch(file, "MAX", window);
      read.history = history_with_peaks(average, &peak, keep_rows_);
    }
  } catch (const std::exception& e) {
    read.error = e.what();
  }
  return read;
}

std::vector<HistoryReader::Read> HistoryReader::read_flushed_files(
    const std::vector<PortRef>& ports, const Window& window, bool peaks) const {
  std::vector<Read> reads(ports.size());
  const FileOrder files = in_path_order(ports);
  // Each file is read as soon as the daemon says it is written, while it writes the next.
  ReadyFiles ready;
  std::vector<char> flushed(ports.size(), 0);  // the daemon answered the port's FLUSH
  std::string failure;
  {
    std::vector<std::jthread> readers;
    for (unsigned t = 0; t < reader_threads(ports.size()); ++t)
      readers.emplace_back([&] {
        while (const auto i = ready.pop()) reads[*i] = read_file(files.paths[*i], window, peaks);
      });
    try {
      state::flush_files(
          store_.daemon_address(), ports.size(),
          [&](std::size_t k, std::string& out) {
            const PortRef& port = ports[files.order[k]];
            store_.append_rrd_name(out, port.node, port.port);
          },
          [&](std::size_t k, const state::FlushResult& result) {
            const std::size_t i = files.order[k];
            flushed[i] = 1;
            if (result.missing) return;  // no file: no history
            if (!result.error.empty())
              reads[i].error = files.paths[i] + ": " + result.error;
            else
              ready.push(i);
          },
          std::chrono::steady_clock::now() + timeout_);
    } catch (const state::StateError& e) {
      failure = e.what();
    }
    ready.close();
  }
  // A file this user may not open (the daemon's own, mode 0640) is still the daemon's to read:
  // those few go through FETCH, so that a report never says less than the daemon could tell.
  std::vector<PortRef> refused;
  std::vector<std::size_t> refused_at;
  for (std::size_t i = 0; i < ports.size(); ++i) {
    if (!flushed[i]) {
      reads[i] = Read{{}, failure};
    } else if (reads[i].error.find(state::kCannotReadHistory) != std::string::npos) {
      refused.push_back(ports[i]);
      refused_at.push_back(i);
    }
  }
  std::vector<Read> fetched = read_through_daemon(refused, window, peaks);
  for (std::size_t k = 0; k < fetched.size(); ++k) reads[refused_at[k]] = std::move(fetched[k]);
  return reads;
}

std::vector<HistoryReader::Read> HistoryReader::read_through_daemon(
    const std::vector<PortRef>& ports, const Window& window, bool peaks) const {
  std::vector<Read> reads(ports.size());
  const auto deadline = std::chrono::steady_clock::now() + timeout_;
  std::vector<std::size_t> all(ports.size());
  std::iota(all.begin(), all.end(), std::size_t{0});
  // The AVERAGE rows of every port, then the MAX rows of those whose rows are consolidated (in
  // the usual window, inside the full-resolution archive, none).
  std::vector<std::optional<FetchedRows>> awaiting_peaks(ports.size());
  fetch_rows(ports, all, "AVERAGE", window, deadline, reads,
             [&](std::size_t i, FetchedRows&& average) {
               if (!peaks)
                 reads[i].history = history_from(average, nullptr, keep_rows_);
               else if (!consolidated(average))
                 reads[i].history = history_with_peaks(average, nullptr, keep_rows_);
               else
                 awaiting_peaks[i] = std::move(average);
             });
  std::vector<std::size_t> second;
  for (std::size_t i = 0; i < ports.size(); ++i)
    if (awaiting_peaks[i]) second.push_back(i);
  fetch_rows(ports, second, "MAX", window, deadline, reads, [&](std::size_t i, FetchedRows&& peak) {
    reads[i].history = history_with_peaks(*awaiting_peaks[i], &peak, keep_rows_);
  });
  return reads;
}

void HistoryReader::fetch_rows(
    const std::vector<PortRef>& ports, const std::vector<std::size_t>& which, const char* cf,
    const Window& window, std::chrono::steady_clock::time_point deadline, std::vector<Read>& reads,
    const std::function<void(std::size_t, FetchedRows&&)>& on_rows) const {
  state::fetch_through_daemon(
      store_.daemon_address(), which.size(),
      [&](std::size_t k, std::string& out) {
        store_.append_rrd_name(out, ports[which[k]].node, ports[which[k]].port);
      },
      cf, window.start, window.end,
      [&](std::size_t k, FetchedRows&& rows) { on_rows(which[k], std::move(rows)); },
      [&](std::size_t k, const std::string& reason) {
        reads[which[k]] = Read{{}, reason};
      },
      deadline);
}

}  // namespace ibpm::history
