// SPDX-License-Identifier: MIT

#include "history/port_history.hpp"

#include <rrd.h>
#include <sys/stat.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <condition_variable>
#include <cstdlib>
#include <deque>
#include <functional>
#include <map>
#include <mutex>
#include <numeric>
#include <thread>

#include "history/fetched_rows.hpp"
#include "state/rrd_layout.hpp"
#include "state/rrdcached_flush.hpp"
#include "state/rrdcached_pipeline.hpp"
#include "state/state_error.hpp"

namespace ibpm::history {

namespace {

// How a file's own read failure is said (the daemon may still read a file this user cannot).
constexpr const char* kCannotRead = ": cannot read its history: ";

// rrd_fetch rounds the end up to the next step boundary, and a boundary up by a whole step: one
// second less ends the fetch on the row that holds `end`, so a window ending on a boundary reads
// no row after it.
std::time_t fetch_end(const Window& window) { return std::max(window.start + 1, window.end - 1); }

FetchedRows fetch(const std::string& path, const char* cf, const Window& window) {
  time_t start = window.start, end = fetch_end(window);
  unsigned long step = 0, sources = 0;
  char** names = nullptr;
  rrd_value_t* data = nullptr;
  rrd_clear_error();
  if (rrd_fetch_r(path.c_str(), cf, &start, &end, &step, &sources, &names, &data) != 0) {
    const char* reason = rrd_get_error();
    std::string text = reason && *reason ? reason : "librrd gave no reason";
    rrd_clear_error();
    throw state::StateError(path + kCannotRead + text);
  }
  FetchedRows rows;
  rows.start = start;
  rows.end = end;
  rows.step = step;
  rows.sources = sources;
  for (unsigned long i = 0; i < sources; ++i) {
    rows.names.emplace_back(names[i]);
    rrd_freemem(names[i]);
  }
  rrd_freemem(names);
  rows.values.assign(data, data + rows.rows() * sources);
  rrd_freemem(data);
  check_sources(path, rows);
  return rows;
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
    : store_(state::StoreOptions{std::move(state_dir), rrdcached, {}}),
      backend_(state::daemon_address(rrdcached)),
      timeout_(timeout) {}

std::string HistoryReader::path(Guid node, PortNumber port) const {
  return store_.path(node, port);
}

PortHistory HistoryReader::read(Guid node, PortNumber port, const Window& window,
                                bool peaks) const {
  const std::string file = path(node, port);
  if (window.end <= window.start || !exists(file)) return {};
  backend_.flush(store_.rrd_name(node, port));
  const FetchedRows average = fetch(file, "AVERAGE", window);
  if (!peaks) return history_from(average, nullptr, keep_rows_);
  if (!consolidated(average)) return history_with_peaks(average, nullptr, keep_rows_);
  const FetchedRows peak = fetch(file, "MAX", window);
  return history_with_peaks(average, &peak, keep_rows_);
}

std::vector<HistoryReader::Read> HistoryReader::read_all(const std::vector<PortRef>& ports,
                                                         const Window& window, bool peaks) const {
  if (window.end <= window.start) return std::vector<Read>(ports.size());
  if (!backend_.uses_daemon()) return read_files(ports, window, peaks);
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
          backend_.daemon_address(), ports.size(),
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
    } else if (reads[i].error.find(kCannotRead) != std::string::npos) {
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
  state::in_slices(ports.size(), state::connections_for(ports.size()),
                   [&](std::size_t begin, std::size_t end) {
                     read_slice(ports, begin, end, window, peaks, deadline, reads);
                   });
  return reads;
}

void HistoryReader::read_slice(const std::vector<PortRef>& ports, std::size_t begin,
                               std::size_t end, const Window& window, bool peaks,
                               std::chrono::steady_clock::time_point deadline,
                               std::vector<Read>& reads) const {
  const std::string range =
      " " + std::to_string(window.start) + " " + std::to_string(fetch_end(window));
  // The slice's ports in one exchange of FETCH commands of one consolidation function.
  // on_rows(i, rows) takes port i's rows (none when it has no file); a port whose answer did
  // not come gets the exchange's failure.
  const auto fetch_all = [&](const std::vector<std::size_t>& which, const char* cf,
                             const std::function<void(std::size_t, FetchedRows &&)>& on_rows) {
    std::size_t answered = 0;
    try {
      state::pipeline(
          backend_.daemon_address(), which.size(),
          [&](std::size_t c, std::string& out) {
            const PortRef& port = ports[which[c]];
            out += "FETCH ";
            state::append_daemon_escaped(out, store_.rrd_name(port.node, port.port));
            out += ' ';
            out += cf;
            out += range;
          },
          [&](std::size_t c, const state::DaemonAnswer& answer) {
            answered = c + 1;
            const std::size_t i = which[c];
            try {
              std::optional<FetchedRows> rows =
                  rows_from_fetch_answer(store_.rrd_name(ports[i].node, ports[i].port), answer);
              if (rows) on_rows(i, std::move(*rows));  // none: no such file, no history
            } catch (const state::StateError& e) {
              reads[i].error = e.what();
            }
          },
          deadline);
    } catch (const state::StateError& e) {
      for (std::size_t c = answered; c < which.size(); ++c) reads[which[c]] = Read{{}, e.what()};
    }
  };
  std::vector<std::size_t> slice(end - begin);
  std::iota(slice.begin(), slice.end(), begin);
  // The AVERAGE rows of every port, then the MAX rows of those whose rows are consolidated (in
  // the usual window, inside the full-resolution archive, none).
  std::map<std::size_t, FetchedRows> awaiting_peaks;
  fetch_all(slice, "AVERAGE", [&](std::size_t i, FetchedRows&& average) {
    if (!peaks)
      reads[i].history = history_from(average, nullptr, keep_rows_);
    else if (!consolidated(average))
      reads[i].history = history_with_peaks(average, nullptr, keep_rows_);
    else
      awaiting_peaks.emplace(i, std::move(average));
  });
  if (awaiting_peaks.empty()) return;
  std::vector<std::size_t> second;
  for (const auto& [i, rows] : awaiting_peaks) second.push_back(i);
  fetch_all(second, "MAX", [&](std::size_t i, FetchedRows&& peak) {
    reads[i].history = history_with_peaks(awaiting_peaks.at(i), &peak, keep_rows_);
  });
}

}  // namespace ibpm::history
