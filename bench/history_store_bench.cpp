// SPDX-License-Identifier: MIT
// ibpm-bench-history: what a report's history read costs through rrdcached against reading the
// files, on a store of many ports without a fabric (bench/history_store.sh runs it).
//
// Fills `--ports` port files with `--rows` minutes of samples ending now, through a local daemon
// (unix socket: files named by their paths under --state-dir) and through a central store (TCP:
// files named under the daemon's base, --central-base). Then, each run: `--pending` more minutes
// written through each daemon (what the daemon holds after the sweeps, as it always does with
// -w 300), and HistoryReader::read_all of every port over the last --window seconds, timed:
//   local first   through the local daemon, its updates pending (the first report after sweeps)
//   local again   the same, nothing pending
//   files         the same files read without a daemon
//   central first through the central store (FETCH), its updates pending
//   central again the same, nothing pending
//   local writing only  --pending minutes written through the local daemon to as many other
//                 files (under STATE_DIR/writing-only), then FLUSHALL
//                 and nothing read: the time its write threads take to write every pending file
//                 (STATS until UpdatesWritten has grown by --ports), the floor of "local first"
// with the daemon exchanges each cost (connections, round trips, commands). Prints one line per
// measure: the median of the runs and its ratio to the files' median of the same runs.
#include <CLI/CLI.hpp>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <map>
#include <string>
#include <thread>
#include <vector>

#include "history/port_history.hpp"
#include "state/port_store.hpp"
#include "state/rrdcached_pipeline.hpp"

namespace {

using namespace ibpm;
using Clock = std::chrono::steady_clock;

constexpr Guid kFirstNode = 0x0002c90300c00000;

PortRef port_of(std::size_t i) {
  return {kFirstNode + i / 36, static_cast<PortNumber>(1 + i % 36)};
}

// Minutes [first, first + count) of every port through `store`, one BATCH a minute: port i
// sends (i % 100 + 1) x 1000 words/s and receives half that.
void write_minutes(const state::PortStore& store, std::size_t ports, std::time_t first,
                   std::size_t count) {
  std::vector<state::PortRecord> records(ports);
  std::vector<state::PortStore::Write> writes(ports);
  for (std::size_t m = 0; m < count; ++m) {
    const std::time_t t = first + static_cast<std::time_t>(m) * 60;
    for (std::size_t i = 0; i < ports; ++i) {
      state::PortRecord& r = records[i];
      r.time = static_cast<double>(t);
      const std::uint64_t words = static_cast<std::uint64_t>(t) * 1000 * (i % 100 + 1);
      r.raw[state::source_index(counters::Counter::xmit_data)] = words;
      r.raw[state::source_index(counters::Counter::rcv_data)] = words / 2;
      r.raw[state::source_index(counters::Counter::xmit_pkts)] = words / 64;
      r.raw[state::source_index(counters::Counter::rcv_pkts)] = words / 128;
      r.raw[state::source_index(counters::Counter::symbol_errors)] = 0;
      writes[i] = {port_of(i).node, port_of(i).port, &records[i], true};
    }
    for (const std::string& error : store.write_all(writes, std::chrono::minutes(10)))
      if (!error.empty()) throw state::StateError(error);
  }
}

struct Measure {
  std::vector<double> seconds;
  state::ExchangeCount cost;
  double median() const {
    std::vector<double> s = seconds;
    std::sort(s.begin(), s.end());
    return s.empty() ? 0 : s[s.size() / 2];
  }
};

// One read of every port, timed and its exchanges counted; every port must have its history.
void read_every_port(const std::string& name, const history::HistoryReader& reader,
                     const std::vector<PortRef>& ports, std::time_t window, Measure& measure) {
  const state::ExchangeCount before = state::exchange_totals();
  const auto start = Clock::now();
  const auto reads = reader.read_all(ports, history::window_ending_now(window));
  measure.seconds.push_back(std::chrono::duration<double>(Clock::now() - start).count());
  const state::ExchangeCount after = state::exchange_totals();
  measure.cost = {after.connections - before.connections, after.round_trips - before.round_trips,
                  after.commands - before.commands, after.reads - before.reads};
  for (const auto& read : reads)
    if (!read.error.empty() || !read.history.found)
      throw state::StateError(name + ": a port without its history: " +
                              (read.error.empty() ? std::string("none found") : read.error));
}

// One STATS of the daemon at `address`: its UpdatesWritten counter (files written so far).
std::uint64_t updates_written(const std::string& address) {
  std::uint64_t written = 0;
  state::pipeline(
      address, 1, [](std::size_t, std::string& out) { out += "STATS"; },
      [&](std::size_t, const state::DaemonAnswer& answer) {
        for (const std::string& line : answer.lines)
          if (line.rfind("UpdatesWritten: ", 0) == 0) written = std::stoull(line.substr(16));
      },
      Clock::now() + std::chrono::seconds(10));
  return written;
}

// FLUSHALL, then STATS every 2 ms until the daemon has written `files` more files: its write
// threads alone on every pending file, nothing read beside them.
void time_daemon_writing(const std::string& address, std::size_t files, Measure& measure) {
  const std::uint64_t before = updates_written(address);
  const auto start = Clock::now();
  state::pipeline(
      address, 1, [](std::size_t, std::string& out) { out += "FLUSHALL"; },
      [](std::size_t, const state::DaemonAnswer& answer) {
        if (answer.status < 0) throw state::StateError("FLUSHALL: " + answer.message);
      },
      start + std::chrono::seconds(10));
  while (updates_written(address) - before < files) {
    if (Clock::now() - start > std::chrono::minutes(2))
      throw state::StateError("the daemon did not write every pending file in 2 minutes");
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  measure.seconds.push_back(std::chrono::duration<double>(Clock::now() - start).count());
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Times history reads through rrdcached against the files (bench/history_store.sh)"};
  std::string state_dir, local, central, central_base;
  std::size_t ports = 23328, rows = 120, pending = 5;
  int runs = 3;
  std::time_t window = 900;
  app.add_option("--state-dir", state_dir, "The local daemon's files (its -b)")->required();
  app.add_option("--local", local, "The local daemon, unix:SOCKET")->required();
  app.add_option("--central", central, "The central store, HOST:PORT")->required();
  app.add_option("--central-base", central_base, "The central store's -b folder")->required();
  app.add_option("--ports", ports, "Port files");
  app.add_option("--rows", rows, "Minutes of history written first");
  app.add_option("--pending", pending, "Minutes written before each run, left pending");
  app.add_option("--runs", runs, "Runs (medians)");
  app.add_option("--window", window, "The reports' window, seconds");
  CLI11_PARSE(app, argc, argv);

  try {
    state::RrdLayout layout;
    layout.full_hours = static_cast<int>(std::max<std::size_t>(1, (rows + 59) / 60 + 1));
    layout.hourly_days = 1;
    layout.daily_days = 0;
    const state::PortStore local_store({state_dir, local, layout});
    const state::PortStore central_store({central_base, central, layout});
    // The same number of files beside them, only for the daemon's writing alone (their own
    // minutes, so that the reads' files and window stay as they are).
    const state::PortStore writing_store({state_dir + "/writing-only", local, layout});
    std::vector<PortRef> all;
    for (std::size_t i = 0; i < ports; ++i) all.push_back(port_of(i));
    const history::HistoryReader through_local(state_dir, local);
    const history::HistoryReader direct(state_dir, "");
    const history::HistoryReader through_central(central_base, central);

    const std::time_t now = std::time(nullptr) / 60 * 60;
    const std::size_t minutes = rows + pending * static_cast<std::size_t>(runs);
    std::time_t next = now - static_cast<std::time_t>(minutes) * 60;
    std::time_t writing_next = next;
    const auto fill_start = Clock::now();
    write_minutes(local_store, ports, next, rows);
    write_minutes(central_store, ports, next, rows);
    next += static_cast<std::time_t>(rows) * 60;
    std::fprintf(stderr, "filled %zu ports x %zu minutes through both daemons in %.1f s\n", ports,
                 rows, std::chrono::duration<double>(Clock::now() - fill_start).count());

    std::map<std::string, Measure> m;
    for (int run = 0; run < runs; ++run) {
      write_minutes(local_store, ports, next, pending);
      write_minutes(central_store, ports, next, pending);
      next += static_cast<std::time_t>(pending) * 60;
      read_every_port("local first", through_local, all, window, m["local first"]);
      read_every_port("local again", through_local, all, window, m["local again"]);
      read_every_port("files", direct, all, window, m["files"]);
      read_every_port("central first", through_central, all, window, m["central first"]);
      read_every_port("central again", through_central, all, window, m["central again"]);
      write_minutes(writing_store, ports, writing_next, pending);
      writing_next += static_cast<std::time_t>(pending) * 60;
      time_daemon_writing(local, ports, m["local writing only"]);
    }
    const double files_median = m["files"].median();
    std::printf("%zu ports, %zu minutes each, window %lld s, %d runs (medians):\n", ports,
                rows + pending * static_cast<std::size_t>(runs), static_cast<long long>(window),
                runs);
    for (const char* name : {"local first", "local again", "files", "central first",
                             "central again", "local writing only"}) {
      const Measure& x = m[name];
      std::printf(
          "  %-18s %7.3f s  %5.2fx the files   connections %zu, round trips %zu, commands %zu\n",
          name, x.median(), x.median() / files_median, x.cost.connections, x.cost.round_trips,
          x.cost.commands);
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "ibpm-bench-history: %s\n", e.what());
    return 1;
  }
  return 0;
}
