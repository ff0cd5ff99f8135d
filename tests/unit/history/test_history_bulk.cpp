// SPDX-License-Identifier: MIT
// HistoryReader::read_all: every port's history in one go, the same as reading the ports one at a
// time, whether the files are read directly (by several threads) or through rrdcached (one
// pipelined exchange of FETCH commands, on a unix socket or over TCP as a central store). A file
// that cannot be read costs that port alone; a daemon that hangs or talks garbage costs no more
// than the deadline and a bounded amount of memory.
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <atomic>
#include <catch2/catch.hpp>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>

#include "history/port_history.hpp"
#include "state/port_store.hpp"
#include "state/rrdcached_pipeline.hpp"
#include "support/rrdcached_daemon.hpp"
#include "support/skip.hpp"
#include "support/temp_dir.hpp"

using namespace ibpm;
using namespace ibpm::history;
using ibpm::test::Listen;
using ibpm::test::Rrdcached;
using ibpm::test::TempDir;
using namespace std::chrono_literals;
namespace fs = std::filesystem;

namespace {

constexpr Guid kFirstNode = 0x0002c90300b00000;
constexpr std::time_t kBulkStart = 1700000040;  // on a 60 s boundary

PortRef port_of(std::size_t i) { return {kFirstNode + i / 4, static_cast<PortNumber>(1 + i % 4)}; }

// `ports` ports, each sampled five times a minute apart, port i sending (i + 1) x 100 words/s
// in the last minute and 100 before; the errors never read.
void write_histories(const state::PortStore& store, std::size_t ports) {
  for (std::size_t i = 0; i < ports; ++i) {
    state::PortRecord r;
    r.time = static_cast<double>(kBulkStart);
    std::uint64_t data = 1000;
    for (int sample = 0; sample < 5; ++sample) {
      r.raw[state::source_index(counters::Counter::xmit_data)] = data;
      r.raw[state::source_index(counters::Counter::rcv_pkts)] = data / 10;
      store.write(port_of(i).node, port_of(i).port, r);
      data += (sample == 3 ? (i + 1) * 100 : 100) * 60;
      r.time += 60;
    }
  }
}

std::vector<PortRef> first_ports(std::size_t count) {
  std::vector<PortRef> ports;
  for (std::size_t i = 0; i < count; ++i) ports.push_back(port_of(i));
  return ports;
}

const Window kWindow{kBulkStart, kBulkStart + 240};

void check_port(const HistoryReader::Read& read, std::size_t i) {
  INFO("port " << i << ": " << read.error);
  CHECK(read.error.empty());
  REQUIRE(read.history.found);
  CHECK(read.history.covered == 240);
  CHECK(*read.history.average_of(counters::Counter::xmit_data) ==
        Approx((300.0 + (i + 1) * 100.0) / 4));
  CHECK(*read.history.peak_of(counters::Counter::xmit_data) ==
        Approx(std::max(100.0, (i + 1) * 100.0)));
  CHECK_FALSE(read.history.average_of(counters::Counter::symbol_errors));
}

// A unix socket listening at `path` (-1 when it cannot be made), for daemons that misbehave.
int listening_socket(const std::string& path) {
  const int fd = ::socket(AF_UNIX, SOCK_STREAM, 0);
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  std::snprintf(addr.sun_path, sizeof addr.sun_path, "%s", path.c_str());
  if (::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0 || ::listen(fd, 8) != 0) {
    ::close(fd);
    return -1;
  }
  return fd;
}

bool same(const PortHistory& a, const PortHistory& b) {
  return a.found == b.found && a.covered == b.covered && a.step == b.step &&
         a.average == b.average && a.peak == b.peak;
}

}  // namespace

TEST_CASE("history in bulk: files read directly by several threads, each as read alone") {
  TempDir dir("history-bulk");
  ::unsetenv("RRDCACHED_ADDRESS");
  const state::PortStore store(state::StoreOptions{(dir.path() / "state").string(), "", {}});
  write_histories(store, 40);
  const HistoryReader reader(store.state_dir());
  std::vector<PortRef> ports = first_ports(40);
  ports.push_back({kFirstNode + 999, 1});  // never polled: no history, no error
  // A foreign file among them: that port's history is lost, with its name; the others are read.
  const PortRef foreign{kFirstNode + 998, 2};
  fs::create_directories(fs::path(store.path(foreign.node, foreign.port)).parent_path());
  std::ofstream(store.path(foreign.node, foreign.port)) << "not an RRD file";
  ports.push_back(foreign);

  const auto reads = reader.read_all(ports, kWindow);
  REQUIRE(reads.size() == 42);
  for (std::size_t i = 0; i < 40; ++i) {
    check_port(reads[i], i);
    CHECK(same(reads[i].history, reader.read(ports[i].node, ports[i].port, kWindow)));
  }
  CHECK_FALSE(reads[40].history.found);
  CHECK(reads[40].error.empty());
  CHECK_FALSE(reads[41].history.found);
  CHECK_THAT(reads[41].error, Catch::StartsWith(store.path(foreign.node, foreign.port) + ": "));

  // Averages only: no peaks, the same averages.
  const auto averages = reader.read_all(ports, kWindow, false);
  CHECK(averages[7].history.average == reads[7].history.average);
  CHECK_FALSE(averages[7].history.peak_of(counters::Counter::xmit_data));
}

TEST_CASE("history in bulk: through rrdcached, one connection and a few round trips for all") {
  if (!fs::exists(ibpm::test::kRrdcached)) IBPM_SKIP("rrdcached is not installed");
  const Listen how = GENERATE(Listen::unix_socket, Listen::tcp);
  TempDir dir("history-bulk-daemon");
  Rrdcached daemon(dir.path(), how);
  REQUIRE(daemon.wait_until_listening());
  const std::string state_dir = (dir.path() / "state").string();
  // Written through the daemon, which keeps them in its cache (-w an hour): FETCH must flush.
  const state::PortStore store(state::StoreOptions{state_dir, daemon.address(), {}});
  write_histories(store, 400);
  const HistoryReader reader(state_dir, daemon.address());

  // The round trips do not grow with the ports: 40 and 400 ports cost the same few round trips.
  // Over TCP (a central store, its files perhaps on another host): one connection, one FETCH per
  // port in writes of 256 KiB (the window lies in the full-resolution archive, where MAX is
  // AVERAGE). On a unix socket (the daemon's files are this host's): one exchange of a FLUSH per
  // port, each file read directly as its answer comes; the daemon holds every update (-w 3600),
  // so a port's history is whole only if the flush wrote it.
  const bool local = how == Listen::unix_socket;
  for (const std::size_t count : {std::size_t{40}, std::size_t{400}}) {
    const state::ExchangeCount before = state::exchange_totals();
    const auto reads = reader.read_all(first_ports(count), kWindow);
    const state::ExchangeCount after = state::exchange_totals();
    INFO(count << " ports");
    CHECK(after.connections - before.connections == 1);
    CHECK(after.round_trips - before.round_trips == 1);
    CHECK(after.commands - before.commands == count);
    for (std::size_t i = 0; i < count; i += 13) check_port(reads[i], i);
    check_port(reads[count - 1], count - 1);
  }
  // More commands than the socket holds, each with a large answer: the answers are read while the
  // commands go out (written first, both sides would wait for each other for ever).
  // So many that the read is spread over connections side by side (two FETCH, four FLUSH).
  const std::vector<PortRef> same_port(9000, port_of(5));
  const state::ExchangeCount before = state::exchange_totals();
  const auto repeated = reader.read_all(same_port, kWindow);
  CHECK(state::exchange_totals().connections - before.connections == (local ? 4 : 2));
  for (std::size_t i = 0; i < repeated.size(); i += 997) check_port(repeated[i], 5);
  check_port(repeated[4499], 5);
  check_port(repeated[4500], 5);
  check_port(repeated.back(), 5);
  const auto repeated_last = store.read_all(same_port, static_cast<double>(std::time(nullptr)));
  CHECK(repeated_last.back().error.empty());
  CHECK(repeated_last.back().record == store.read(port_of(5).node, port_of(5).port));

  // A missing file through the daemon: no history, no error.
  const auto missing = reader.read_all({{kFirstNode + 999, 1}}, kWindow);
  CHECK_FALSE(missing[0].history.found);
  CHECK(missing[0].error.empty());

  // The last samples in bulk too (INFO after FLUSH), the same as one at a time.
  const double now = static_cast<double>(std::time(nullptr));
  const auto last = store.read_all(first_ports(40), now);
  for (std::size_t i = 0; i < 40; ++i) {
    CHECK(last[i].error.empty());
    CHECK(last[i].record == store.read(port_of(i).node, port_of(i).port, now));
  }
}

namespace {

constexpr std::time_t kHourStart = 1700002800;  // on an hour boundary

// Ports 1..3 of kFirstNode sampled every minute for three hours, into files that keep one hour at
// full resolution: a window of the three hours is read from the hourly rows. Each port sends 100
// words/s but for one minute of the second hour at 100 x (port + 10).
state::PortStore write_hours(const TempDir& dir, const std::string& rrdcached) {
  state::RrdLayout layout;
  layout.full_hours = 1;
  layout.hourly_days = 1;
  layout.daily_days = 0;
  state::PortStore store(state::StoreOptions{(dir.path() / "state").string(), rrdcached, layout});
  for (PortNumber port = 1; port <= 3; ++port) {
    state::PortRecord r;
    std::uint64_t data = 1000;
    for (int minute = 0; minute <= 180; ++minute) {
      r.time = static_cast<double>(kHourStart + minute * 60);
      r.raw[state::source_index(counters::Counter::xmit_data)] = data;
      store.write(kFirstNode, port, r);
      data += (minute == 90 ? 100u * (port + 10) : 100u) * 60;
    }
  }
  return store;
}

// The hourly rows: the average of the second hour is near 100, its peak the burst's rate.
void check_hours(const std::vector<HistoryReader::Read>& reads) {
  for (PortNumber port = 1; port <= 3; ++port) {
    const HistoryReader::Read& read = reads[port - 1];
    INFO("port " << int{port} << ": " << read.error);
    REQUIRE(read.history.found);
    CHECK(read.history.step == 3600);
    CHECK(*read.history.average_of(counters::Counter::xmit_data) < 200.0);
    REQUIRE(read.history.peak_of(counters::Counter::xmit_data));
    CHECK(*read.history.peak_of(counters::Counter::xmit_data) == Approx(100.0 * (port + 10)));
  }
}

const std::vector<PortRef> kHourPorts{{kFirstNode, 1}, {kFirstNode, 2}, {kFirstNode, 3}};
const Window kHours{kHourStart, kHourStart + 3 * 3600};

}  // namespace

TEST_CASE("history in bulk: a local daemon's files are read directly once flushed") {
  if (!fs::exists(ibpm::test::kRrdcached)) IBPM_SKIP("rrdcached is not installed");
  // A daemon that serves no FETCH (-P): the files on this host are read after their FLUSH, so
  // the history is whole (every update was pending, -w 3600) and no FETCH was needed.
  TempDir dir("history-bulk-flushed");
  Rrdcached daemon(dir.path(), Listen::unix_socket, ibpm::test::Folders::made,
                   "BATCH,UPDATE,CREATE,FLUSH,PENDING,INFO,LAST");
  REQUIRE(daemon.wait_until_listening());
  const std::string state_dir = (dir.path() / "state").string();
  const state::PortStore store(state::StoreOptions{state_dir, daemon.address(), {}});
  write_histories(store, 300);
  const HistoryReader reader(state_dir, daemon.address());
  const auto reads = reader.read_all(first_ports(300), kWindow);
  for (std::size_t i = 0; i < 300; ++i) check_port(reads[i], i);
  // The same numbers as the files give without the daemon, now that they are written.
  const HistoryReader direct(state_dir, "");
  const auto from_files = direct.read_all(first_ports(300), kWindow);
  for (std::size_t i = 0; i < 300; ++i) CHECK(same(reads[i].history, from_files[i].history));
  // A central store (its files perhaps on another host) is read with FETCH, which this daemon
  // refuses: every port says so.
  Rrdcached central(dir.path() / "central", Listen::tcp, ibpm::test::Folders::made,
                    "BATCH,UPDATE,CREATE,FLUSH,PENDING,INFO,LAST");
  REQUIRE(central.wait_until_listening());
  const state::PortStore central_store(
      state::StoreOptions{(dir.path() / "central" / "state").string(), central.address(), {}});
  write_histories(central_store, 3);
  const HistoryReader through_central(central_store.state_dir(), central.address());
  const auto refused = through_central.read_all(first_ports(3), kWindow);
  CHECK_THAT(refused[0].error, Catch::Contains("ermission"));
}

TEST_CASE("history in bulk: consolidated rows take their peaks from the MAX archive") {
  ::unsetenv("RRDCACHED_ADDRESS");
  TempDir dir("history-bulk-hours");
  const state::PortStore store = write_hours(dir, "");
  const HistoryReader reader(store.state_dir());
  check_hours(reader.read_all(kHourPorts, kHours));
  for (PortNumber port = 1; port <= 3; ++port)
    CHECK(reader.read(kFirstNode, port, kHours).peak ==
          reader.read_all(kHourPorts, kHours)[port - 1].history.peak);
}

TEST_CASE("history in bulk: through rrdcached, a MAX fetch only for consolidated rows") {
  if (!fs::exists(ibpm::test::kRrdcached)) IBPM_SKIP("rrdcached is not installed");
  const Listen how = GENERATE(Listen::unix_socket, Listen::tcp);
  const bool local = how == Listen::unix_socket;
  TempDir dir("history-bulk-hours-daemon");
  Rrdcached daemon(dir.path(), how);
  REQUIRE(daemon.wait_until_listening());
  const state::PortStore store = write_hours(dir, daemon.address());
  const HistoryReader reader(store.state_dir(), daemon.address());
  const state::ExchangeCount before = state::exchange_totals();
  check_hours(reader.read_all(kHourPorts, kHours));
  const state::ExchangeCount after = state::exchange_totals();
  // Over TCP: AVERAGE of the three ports, then MAX of the three. On a unix socket: the three
  // FLUSHes, whatever the archives the files are then read from.
  CHECK(after.commands - before.commands == (local ? 3 : 6));
  // The last half hour lies in the full-resolution archive: AVERAGE alone, peaks all the same.
  const Window last{kHourStart + 3 * 3600 - 1800, kHourStart + 3 * 3600};
  const state::ExchangeCount before_last = state::exchange_totals();
  const auto reads = reader.read_all(kHourPorts, last);
  CHECK(state::exchange_totals().commands - before_last.commands == 3);
  REQUIRE(reads[0].history.peak_of(counters::Counter::xmit_data));
  CHECK(reads[0].history.step == 60);
  CHECK(*reads[0].history.peak_of(counters::Counter::xmit_data) == Approx(100.0));
}

TEST_CASE("history in bulk: a daemon that never answers costs the deadline, not forever") {
  TempDir dir("history-bulk-hung");
  const std::string socket = (dir.path() / "hung.sock").string();
  // Listening, never accepting: connections succeed and no answer ever comes.
  const int fd = listening_socket(socket);
  REQUIRE(fd >= 0);

  const HistoryReader reader((dir.path() / "state").string(), "unix:" + socket, 300ms);
  const auto start = std::chrono::steady_clock::now();
  const auto reads = reader.read_all(first_ports(3), kWindow);
  CHECK(std::chrono::steady_clock::now() - start < 5s);
  for (const auto& read : reads) {
    CHECK_FALSE(read.history.found);
    CHECK_THAT(read.error, Catch::StartsWith("rrdcached at unix:" + socket + ": ") &&
                               Catch::Contains("did not answer within 0."));
  }
  ::close(fd);
}

TEST_CASE("history in bulk: a daemon streaming one endless line is cut off, memory bounded") {
  TempDir dir("history-bulk-endless");
  const std::string socket = (dir.path() / "endless.sock").string();
  const int fd = listening_socket(socket);
  REQUIRE(fd >= 0);
  std::atomic<std::size_t> sent{0};
  std::thread server([&] {
    const int client = ::accept(fd, nullptr, nullptr);
    const std::string garbage(64 * 1024, 'x');
    for (;;) {
      const ssize_t n = ::send(client, garbage.data(), garbage.size(), MSG_NOSIGNAL);
      if (n <= 0) break;
      sent += static_cast<std::size_t>(n);
    }
    ::close(client);
  });
  const HistoryReader reader((dir.path() / "state").string(), "unix:" + socket, 10s);
  const auto reads = reader.read_all(first_ports(2), kWindow);
  server.join();
  ::close(fd);
  CHECK_THAT(reads[0].error, Catch::Contains("longer than"));
  // The client stopped reading soon after the limit of one line.
  CHECK(sent.load() < 16 * state::DaemonConnection::kMaxLine);
}
