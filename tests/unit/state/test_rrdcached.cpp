// SPDX-License-Identifier: MIT

#include <arpa/inet.h>
#include <netinet/in.h>
#include <rrd.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "state/port_store.hpp"
#include "state/rrdcached_connection.hpp"
#include "state/rrdcached_pipeline.hpp"
#include "support/direct_store.hpp"
#include "support/process.hpp"
#include "support/rrdcached_daemon.hpp"
#include "support/skip.hpp"
#include "support/temp_dir.hpp"

namespace fs = std::filesystem;
using namespace ibpm;
using namespace ibpm::state;
using namespace ibpm::state::test;
using ibpm::test::TempDir;
using namespace std::chrono_literals;

namespace {

constexpr Guid kCachedNode = 0x0002c90300a1b2c3;
using ibpm::test::kRrdcached;

using ibpm::test::Listen;
using ibpm::test::Rrdcached;

// One command sent to the daemon over TCP as anyone who reaches it could, and its first answer
// line ("0 errors, enqueued 1 value(s)." for an update taken).
std::string send_raw(int port, const std::string& command) {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = htons(static_cast<std::uint16_t>(port));
  std::string answer;
  if (::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0) {
    const std::string line = command + "\n";
    if (::write(fd, line.data(), line.size()) == static_cast<ssize_t>(line.size())) {
      char c = 0;
      while (::read(fd, &c, 1) == 1 && c != '\n') answer += c;
    }
  }
  ::close(fd);
  return answer;
}

std::string last_ds_on_disk(const std::string& path, const std::string& source) {
  rrd_info_t* info = rrd_info_r(path.c_str());
  std::string value = "(no info)";
  for (rrd_info_t* item = info; item; item = item->next)
    if (item->key == "ds[" + source + "].last_ds" && item->type == RD_I_STR)
      value = item->value.u_str;
  rrd_info_free(info);
  rrd_clear_error();
  return value;
}

// Two samples of a port that use every field: a 64-bit counter near its top, a saturated counter
// the second time, and a reset.
std::pair<PortRecord, PortRecord> two_samples() {
  PortRecord first;
  first.time = 1700000000.125;
  first.raw[source_index(counters::Counter::xmit_data)] = ~std::uint64_t{0} - 1;
  first.raw[source_index(counters::Counter::rcv_data)] = 0;
  first.pma_cap_mask = 0x5600;
  PortRecord second = first;
  second.time += 60;
  second.raw[source_index(counters::Counter::rcv_data)] = 42;
  second.raw[source_index(counters::Counter::link_downed)] = 255;
  second.saturated = counters::counter_bit(counters::Counter::link_downed);
  second.last_reset = 1699999000.25;
  second.reset_mask = 1;
  return {first, second};
}

}  // namespace

TEST_CASE("through rrdcached: written values are visible before the daemon writes them") {
  if (!fs::exists(kRrdcached)) IBPM_SKIP("rrdcached is not installed (apt-get install rrdcached)");
  TempDir dir("rrdcached");
  auto daemon = std::make_unique<Rrdcached>(dir.path());
  REQUIRE(daemon->wait_until_listening());

  ::unsetenv("RRDCACHED_ADDRESS");
  PortStore store(StoreOptions{(dir.path() / "state").string(), daemon->address(), RrdLayout{}});
  CHECK(store.uses_daemon());

  const auto [first, second] = two_samples();
  store.write(kCachedNode, 3, first);
  store.write(kCachedNode, 3, second);

  const std::string path = store.path(kCachedNode, 3);
  CHECK(fs::is_regular_file(path));
  // Still in the daemon's cache: the file on disk has no sample yet.
  CHECK(last_ds_on_disk(path, "sample_time") == "U");

  CHECK(store.read(kCachedNode, 3) == second);
  CHECK_THROWS_WITH(store.write(kCachedNode, 3, second), Catch::StartsWith(path + ": "));

  // A second port, and a missing one, through the same connection.
  store.write(kCachedNode, 4, first);
  CHECK(store.read(kCachedNode, 4) == first);
  CHECK_FALSE(store.read(kCachedNode, 5));
  std::vector<std::string> names;
  for (const auto& entry : fs::directory_iterator(store.node_dir(kCachedNode)))
    names.push_back(entry.path().filename());
  std::sort(names.begin(), names.end());
  CHECK(names == std::vector<std::string>{"port3.rrd", "port4.rrd"});

  // A restarted daemon: the old connection is dead. librrd writes to it without MSG_NOSIGNAL,
  // which would end this process with SIGPIPE unless the store keeps SIGPIPE away.
  daemon.reset();  // stops it
  daemon = std::make_unique<Rrdcached>(dir.path());
  REQUIRE(daemon->wait_until_listening());
  PortRecord third = second;
  third.time += 60;
  third.raw[source_index(counters::Counter::rcv_data)] = 4242;
  store.write(kCachedNode, 3, third);
  CHECK(store.read(kCachedNode, 3) == third);
}

TEST_CASE(
    "through rrdcached: many ports' last samples read from the daemon's cache, else the files") {
  if (!fs::exists(kRrdcached)) IBPM_SKIP("rrdcached is not installed (apt-get install rrdcached)");
  TempDir dir("rrdcached-pending");
  Rrdcached daemon(dir.path());
  REQUIRE(daemon.wait_until_listening());
  ::unsetenv("RRDCACHED_ADDRESS");
  PortStore store(StoreOptions{(dir.path() / "state").string(), daemon.address(), RrdLayout{}});

  // Two samples of port 3 pending (the last one counts), one of port 4, none of port 5 (no file).
  auto [first, second] = two_samples();
  first.extended = second.extended = true;
  for (const std::string& error : store.write_all({{kCachedNode, 3, &first, false},
                                                   {kCachedNode, 3, &second, true},
                                                   {kCachedNode, 4, &first, false}}))
    CHECK(error.empty());
  const std::vector<PortRef> ports{{kCachedNode, 3}, {kCachedNode, 4}, {kCachedNode, 5}};
  const double now = 1700000200;

  // From the daemon's cache: one PENDING per file, and a FLUSH and an INFO only for the file it
  // has nothing of.
  ExchangeCount before = exchange_totals();
  const auto cached = store.read_all(ports, now);
  CHECK(exchange_totals().commands - before.commands == 3 + 2);
  REQUIRE(cached.size() == 3);
  CHECK(cached[0].record == std::optional<PortRecord>(second));
  CHECK(cached[1].record == std::optional<PortRecord>(first));
  CHECK_FALSE(cached[2].record);
  for (const auto& read : cached) CHECK(read.error.empty());

  // Written to the files: the same records, read from them.
  for (PortNumber port : {PortNumber{3}, PortNumber{4}}) {
    DaemonConnection flush(daemon.address(), std::chrono::steady_clock::now() + 10s);
    flush.send_all("FLUSH " + store.rrd_name(kCachedNode, port) + "\n");
    CHECK(flush.read_line().starts_with("0 "));
  }
  before = exchange_totals();
  const auto written = store.read_all(ports, now);
  CHECK(exchange_totals().commands - before.commands == 3 + 3 * 2);
  CHECK(written[0].record == cached[0].record);
  CHECK(written[1].record == cached[1].record);
  CHECK_FALSE(written[2].record);

  // A pending sample dated in the future is an error naming the file, as one on disk is.
  PortRecord ahead = second;
  ahead.time = now + 3600;
  for (const std::string& error : store.write_all({{kCachedNode, 3, &ahead, true}}))
    CHECK(error.empty());
  const auto future = store.read_all(ports, now);
  CHECK_FALSE(future[0].record);
  CHECK_THAT(future[0].error, Catch::Contains(store.rrd_name(kCachedNode, 3)));
  CHECK_THAT(future[0].error, Catch::Contains("ahead of the clock"));
  CHECK(future[1].record == cached[1].record);
}

TEST_CASE("through rrdcached: a take-over's reads cost the same per port at 40 and 400 ports") {
  // What a collector with no record of its own pays to read every port's last sample: counted,
  // so that a per-port round trip (or a per-port connection) coming back fails here.
  if (!fs::exists(kRrdcached)) IBPM_SKIP("rrdcached is not installed (apt-get install rrdcached)");
  TempDir dir("rrdcached-takeover-cost");
  // Over TCP, as a central store is reached: there the reader sleeps until enough octets are in
  // (SO_RCVLOWAT); on a unix socket Linux wakes it for every answer whatever the mark.
  Rrdcached daemon(dir.path(), ibpm::test::Listen::tcp);
  REQUIRE(daemon.wait_until_listening());
  ::unsetenv("RRDCACHED_ADDRESS");
  PortStore store(StoreOptions{(dir.path() / "state").string(), daemon.address(), RrdLayout{}});
  const auto [first, second] = two_samples();
  std::vector<PortRef> ports;
  std::vector<PortStore::Write> writes;
  for (std::size_t i = 0; i < 400; ++i) {
    ports.push_back({kCachedNode + i / 8, static_cast<PortNumber>(1 + i % 8)});
    writes.push_back({ports.back().node, ports.back().port, &first, false});
  }
  for (const std::string& error : store.write_all(writes)) REQUIRE(error.empty());
  const double now = first.time + 60;

  // cost(n): what reading the first n ports' last samples took.
  const auto cost = [&](std::size_t n) {
    const std::vector<PortRef> some(ports.begin(), ports.begin() + static_cast<long>(n));
    const ExchangeCount before = exchange_totals();
    const auto reads = store.read_all(some, now);
    const ExchangeCount after = exchange_totals();
    for (const auto& read : reads) CHECK(read.record == std::optional<PortRecord>(first));
    return ExchangeCount{after.connections - before.connections,
                         after.round_trips - before.round_trips, after.commands - before.commands,
                         after.reads - before.reads};
  };
  // Every sample still pending: one PENDING per port on one connection, at most one wait once
  // every command is sent (none when the answers are in by then), the answers read in bulk.
  ExchangeCount small = cost(40), large = cost(400);
  CHECK(small.commands == 40);
  CHECK(large.commands == 400);
  CHECK(small.connections == 1);
  CHECK(large.connections == 1);
  CHECK(large.round_trips <= 1);
  CHECK(large.reads <= 400 / 2);  // about 70 here; a read per answer would be 400

  // Every sample on disk: PENDING, then FLUSH and INFO per port, still in as many round trips.
  // FLUSH answers once the file is written (FLUSHALL only starts the writing).
  pipeline(
      daemon.address(), ports.size(),
      [&](std::size_t i, std::string& out) {
        out += "FLUSH " + store.rrd_name(ports[i].node, ports[i].port);
      },
      [](std::size_t, const DaemonAnswer& answer) { CHECK(answer.status == 0); },
      std::chrono::steady_clock::now() + 30s);
  small = cost(40);
  large = cost(400);
  CHECK(small.commands == 3 * 40);
  CHECK(large.commands == 3 * 400);
  CHECK(large.connections == small.connections);
  CHECK(large.round_trips <= 2);  // the PENDING exchange, then the FLUSH and INFO one
  // An INFO answer is a few kilobytes, read as it comes: about 2 reads per port at either size.
  INFO("reads: " << small.reads << " for 40 ports, " << large.reads << " for 400");
  CHECK(large.reads <= 5 * 400);
}

TEST_CASE("through rrdcached: thousands of updates go in one BATCH and each failure is named") {
  if (!fs::exists(kRrdcached)) IBPM_SKIP("rrdcached is not installed (apt-get install rrdcached)");
  TempDir dir("rrdcached-batch");
  auto daemon = std::make_unique<Rrdcached>(dir.path());
  REQUIRE(daemon->wait_until_listening());
  ::unsetenv("RRDCACHED_ADDRESS");
  PortStore store(StoreOptions{(dir.path() / "state").string(), daemon->address(), RrdLayout{}});

  // 20 ports with 150 samples each, a minute apart: 3,000 updates, the files made on the way.
  constexpr int kPorts = 20, kSamples = 150;
  std::vector<PortRecord> records;
  records.reserve(kPorts * kSamples);
  std::vector<PortStore::Write> writes;
  for (int s = 0; s < kSamples; ++s)
    for (int p = 1; p <= kPorts; ++p) {
      PortRecord r;
      r.time = 1700000000.5 + 60.0 * s;
      r.raw[source_index(counters::Counter::xmit_data)] = static_cast<std::uint64_t>(1000 * s + p);
      records.push_back(r);
    }
  for (int s = 0; s < kSamples; ++s)
    for (int p = 1; p <= kPorts; ++p)
      writes.push_back(
          {kCachedNode, static_cast<PortNumber>(p), &records[s * kPorts + p - 1], s > 0});
  // One more for port 7 that is not after its last sample: refused, and only it.
  PortRecord stale = records.front();
  writes.push_back({kCachedNode, 7, &stale, true});

  const std::vector<std::string> errors = store.write_all(writes);
  REQUIRE(errors.size() == writes.size());
  const auto failed =
      std::count_if(errors.begin(), errors.end(), [](auto& e) { return !e.empty(); });
  CHECK(failed == 1);
  CHECK_THAT(errors.back(),
             Catch::StartsWith(store.path(kCachedNode, 7) + ": cannot update through rrdcached"));
  for (int p = 1; p <= kPorts; ++p) {
    const std::optional<PortRecord> last = store.read(kCachedNode, static_cast<PortNumber>(p));
    REQUIRE(last);
    CHECK(last->raw[source_index(counters::Counter::xmit_data)] ==
          static_cast<std::uint64_t>(1000 * (kSamples - 1) + p));
  }

  // A daemon that is gone fails every write, each naming the daemon.
  daemon.reset();
  std::vector<PortRecord> later(1, records.back());
  later[0].time += 60;
  const auto gone = store.write_all({{kCachedNode, 1, &later[0], true}});
  CHECK_THAT(gone[0], Catch::Contains("rrdcached at "));
}

TEST_CASE(
    "central store over TCP: files named relative to the daemon's base, made and read "
    "through it, nothing written in the collector's state directory") {
  if (!fs::exists(kRrdcached)) {
    WARN("rrdcached is not installed (apt-get install rrdcached): skipped");
    return;
  }
  TempDir dir("central");
  auto daemon = std::make_unique<Rrdcached>(dir.path(), Listen::tcp);
  REQUIRE(daemon->wait_until_listening());

  ::unsetenv("RRDCACHED_ADDRESS");
  const fs::path local = dir.path() / "collector";
  PortStore store(StoreOptions{local.string(), daemon->address(), RrdLayout{}});
  CHECK(store.central_store());
  CHECK(store.rrd_name(kCachedNode, 3) == "0x0002c90300a1b2c3/port3.rrd");
  CHECK(store.path(kCachedNode, 3) == (local / "0x0002c90300a1b2c3/port3.rrd").string());

  // Not there yet: asked of the daemon, not of this host.
  CHECK_FALSE(store.read(kCachedNode, 3).has_value());

  PortRecord first;
  first.time = 1'700'000'000;
  first.raw[0] = 1000;
  first.raw[1] = 2000;
  PortRecord second = first;
  second.time += 60;
  second.raw[0] = 7000;
  const std::vector<PortStore::Write> writes{{kCachedNode, 3, &first, false},
                                             {kCachedNode, 4, &first, false}};
  for (const std::string& error : store.write_all(writes)) CHECK(error.empty());
  const std::vector<PortStore::Write> next{{kCachedNode, 3, &second, true}};
  for (const std::string& error : store.write_all(next)) CHECK(error.empty());

  // Another collector stored a later sample first: this one's is not needed, and no error.
  PortRecord overtaken = second;
  overtaken.time -= 0.5;
  for (const std::string& error : store.write_all({{kCachedNode, 3, &overtaken, true}}))
    CHECK(error.empty());

  // Another collector (a take-over) reads the last sample through the daemon.
  PortStore other(StoreOptions{(dir.path() / "other").string(), daemon->address(), RrdLayout{}});
  const auto read = other.read(kCachedNode, 3);
  REQUIRE(read.has_value());
  CHECK(read->time == second.time);
  CHECK(read->raw[0] == std::optional<std::uint64_t>(7000));
  CHECK(read->raw[1] == std::optional<std::uint64_t>(2000));

  // The last update of each file in one exchange: what a collector checks its record against.
  const auto last = store.last_updates({{kCachedNode, 3}, {kCachedNode, 4}, {kCachedNode, 9}});
  REQUIRE(last.size() == 3);
  // (rounded down to the step, 60 s)
  const auto step_of = [](double t) { return static_cast<std::time_t>(t) / 60 * 60; };
  CHECK(last[0] == std::optional<std::time_t>(step_of(second.time)));
  CHECK(last[1] == std::optional<std::time_t>(step_of(first.time)));
  CHECK_FALSE(last[2].has_value());  // no such file

  // Thousands of them (a sweep's check of its record) cost the client a few reads, not one per
  // answer: the daemon writes each answer on its own, and the client is woken for many at once.
  const std::vector<PortRef> many(3000, PortRef{kCachedNode, 4});
  const ExchangeCount before = exchange_totals();
  const auto many_last = store.last_updates(many);
  const ExchangeCount cost = exchange_totals();
  CHECK(many_last.back() == last[1]);
  // Each answered from the daemon's memory (PENDING): no LAST, which opens the file.
  CHECK(cost.commands - before.commands == 3000);
  // (a PENDING answer is two lines the daemon may write apart: up to ~250 reads here, against
  // 2,218 for LAST answers read one by one)
  CHECK(cost.reads - before.reads <= 500);
  // Once the daemon has written the file out, nothing is pending: LAST is asked, same answer.
  CHECK(send_raw(daemon->port(), "FLUSH " + store.rrd_name(kCachedNode, 4)).starts_with("0 "));
  const ExchangeCount before_flushed = exchange_totals();
  CHECK(store.last_updates(many).back() == last[1]);
  CHECK(exchange_totals().commands - before_flushed.commands == 3000 * 2);

  // The files are on the store's side, under its base directory; none on the collector's.
  CHECK(fs::exists(dir.path() / "state/0x0002c90300a1b2c3/port3.rrd"));
  CHECK(fs::exists(dir.path() / "state/0x0002c90300a1b2c3/port4.rrd"));
  CHECK_FALSE(fs::exists(local / "0x0002c90300a1b2c3"));

  // A store that is gone: a one-line reason naming the daemon, per write.
  daemon.reset();
  PortRecord third = second;
  third.time += 60;
  const auto errors = store.write_all({{kCachedNode, 3, &third, true}});
  REQUIRE(errors.size() == 1);
  CHECK_THAT(errors[0], Catch::Contains("rrdcached at " + std::string("127.0.0.1")));
  CHECK_THROWS_AS(other.read(kCachedNode, 3), StateError);
  CHECK_THROWS_AS(store.last_updates({{kCachedNode, 3}}), StateError);
}

TEST_CASE(
    "central store over TCP: a sample someone dated in the future, with or without values, is "
    "an error naming the file, never another collector's later sample") {
  if (!fs::exists(kRrdcached)) IBPM_SKIP("rrdcached is not installed (apt-get install rrdcached)");
  TempDir dir("central-future");
  Rrdcached daemon(dir.path(), Listen::tcp);
  REQUIRE(daemon.wait_until_listening());
  ::unsetenv("RRDCACHED_ADDRESS");
  PortStore store(StoreOptions{(dir.path() / "collector").string(), daemon.address(), RrdLayout{}});
  const double now =
      std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();

  PortRecord first;
  first.time = std::floor(now) - 120;
  first.raw[0] = 1000;
  for (const std::string& error :
       store.write_all({{kCachedNode, 3, &first, false}, {kCachedNode, 4, &first, false}}))
    CHECK(error.empty());

  // Anyone who reaches the store updates port 3 with a sample dated 2100 (values and all), and
  // port 4 with an update dated 2100 that holds no values.
  constexpr double k2100 = 4102444800;
  PortRecord forged = first;
  forged.time = k2100;
  forged.raw[0] = 1000;
  CHECK(send_raw(daemon.port(),
                 "UPDATE " + store.rrd_name(kCachedNode, 3) + " " + update_line(forged))
            .starts_with("0 "));
  std::string blank = std::to_string(static_cast<long long>(k2100));
  for (std::size_t i = 0; i < kSourceCount; ++i) blank += ":U";
  CHECK(send_raw(daemon.port(), "UPDATE " + store.rrd_name(kCachedNode, 4) + " " + blank)
            .starts_with("0 "));

  // "FILE: last update N s ahead of the clock", N about 2100 - now.
  const auto ahead = [&](PortNumber port, const std::string& text) {
    const std::string start = store.rrd_name(kCachedNode, port) + ": last update ";
    const auto by = std::llround(k2100 - now);
    return text == start + std::to_string(by) + " s ahead of the clock" ||
           text == start + std::to_string(by - 1) + " s ahead of the clock";
  };
  const auto thrown = [&](PortNumber port) {
    try {
      store.read(kCachedNode, port);
    } catch (const StateError& e) {
      return std::string(e.what());
    }
    return std::string("(nothing thrown)");
  };
  CHECK(ahead(3, thrown(3)));
  CHECK(ahead(4, thrown(4)));

  // This collector's next samples are refused: an error naming the file and the reason, not
  // "another collector stored a later sample first".
  PortRecord second = first;
  second.time = std::floor(now);
  second.raw[0] = 1500;
  const auto errors =
      store.write_all({{kCachedNode, 3, &second, true}, {kCachedNode, 4, &second, true}});
  REQUIRE(errors.size() == 2);
  INFO(errors[0] << "\n" << errors[1]);
  CHECK(ahead(3, errors[0]));
  CHECK(ahead(4, errors[1]));

  // A genuinely later sample (not in the future) is still another collector's: no error.
  PortRecord fifth = first;
  store.write_all({{kCachedNode, 5, &fifth, false}});
  PortRecord later = first;
  later.time = std::floor(now) - 10;
  CHECK(
      send_raw(daemon.port(), "UPDATE " + store.rrd_name(kCachedNode, 5) + " " + update_line(later))
          .starts_with("0 "));
  PortRecord mine = first;
  mine.time = std::floor(now) - 20;
  CHECK(store.write_all({{kCachedNode, 5, &mine, true}})[0].empty());
}

TEST_CASE("central store without -R: one message for every port, with the fix, asked once") {
  if (!fs::exists(kRrdcached)) {
    WARN("rrdcached is not installed (apt-get install rrdcached): skipped");
    return;
  }
  TempDir dir("no-folders");
  Rrdcached daemon(dir.path(), Listen::tcp, ibpm::test::Folders::refused);
  REQUIRE(daemon.wait_until_listening());
  ::unsetenv("RRDCACHED_ADDRESS");
  PortStore store(StoreOptions{(dir.path() / "collector").string(), daemon.address(), RrdLayout{}});
  PortRecord first;
  first.time = 1'700'000'000;
  first.raw[0] = 1000;
  std::vector<PortStore::Write> writes;
  for (PortNumber port = 1; port <= 20; ++port)
    writes.push_back({kNode + port % 4, port, &first, false});
  const std::vector<std::string> errors = store.write_all(writes);
  REQUIRE(errors.size() == writes.size());
  for (const std::string& error : errors) {
    INFO(error);
    CHECK(error == errors.front());  // the same text: the sweep says it once
    CHECK(error.find("start it with -R") != std::string::npos);
    CHECK(error.find(daemon.address()) != std::string::npos);
  }
}

TEST_CASE("a file name is escaped for the daemon's parser: spaces and backslashes only") {
  const auto escaped = [](std::string_view path) {
    std::string out = "UPDATE ";
    ibpm::state::append_daemon_escaped(out, path);
    return out;
  };
  CHECK(escaped("") == "UPDATE ");
  CHECK(escaped("/var/lib/ibpm/0x0002c903004f3a30/port7.rrd") ==
        "UPDATE /var/lib/ibpm/0x0002c903004f3a30/port7.rrd");
  CHECK(escaped("a b\\c") == "UPDATE a\\ b\\\\c");
  CHECK(escaped(" \\\\ ") == "UPDATE \\ \\\\\\\\\\ ");
  CHECK(escaped("end ") == "UPDATE end\\ ");
}
