// SPDX-License-Identifier: MIT

#include <rrd.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <set>

#include "state/port_store.hpp"
#include "support/direct_store.hpp"
#include "support/temp_dir.hpp"

namespace fs = std::filesystem;
using namespace ibpm;
using namespace ibpm::state;
using namespace ibpm::state::test;
using ibpm::test::TempDir;
using namespace std::chrono_literals;

namespace {

constexpr Guid kNode = 0x0002c90300a1b2c3;
constexpr std::uint64_t kCounterMax64 = ~std::uint64_t{0};

std::set<std::string> names_in(const fs::path& dir) {
  std::set<std::string> names;
  for (const auto& entry : fs::directory_iterator(dir)) names.insert(entry.path().filename());
  return names;
}

void create_with_librrd(const std::string& path, std::vector<std::string> definitions,
                        unsigned long step) {
  std::vector<const char*> argv;
  for (const std::string& d : definitions) argv.push_back(d.c_str());
  rrd_clear_error();
  INFO(rrd_get_error());
  REQUIRE(rrd_create_r(path.c_str(), step, 1700000000, static_cast<int>(argv.size()),
                       argv.data()) == 0);
}

// The AVERAGE row of `source` ending at `end`, as rrd_fetch computes it.
double fetched_average(const std::string& path, std::string_view source, time_t end,
                       unsigned long step) {
  time_t start = end - static_cast<time_t>(step);
  time_t stop = end;
  unsigned long fetched_step = 0, count = 0;
  char** names = nullptr;
  rrd_value_t* data = nullptr;
  rrd_clear_error();
  INFO(rrd_get_error());
  REQUIRE(rrd_fetch_r(path.c_str(), "AVERAGE", &start, &stop, &fetched_step, &count, &names,
                      &data) == 0);
  double value = NAN;
  std::size_t column = count;
  for (std::size_t i = 0; i < count; ++i)
    if (names[i] == source) column = i;
  for (time_t t = start + static_cast<time_t>(fetched_step); t <= stop;
       t += static_cast<time_t>(fetched_step))
    if (t == end && column < count)
      value = data[static_cast<std::size_t>((t - start) / static_cast<time_t>(fetched_step) - 1) *
                       count +
                   column];
  for (std::size_t i = 0; i < count; ++i) rrd_freemem(names[i]);
  rrd_freemem(names);
  rrd_freemem(data);
  return value;
}

}  // namespace

TEST_CASE("a port state file is named by GUID and port and gives exact values back") {
  TempDir dir("roundtrip");
  PortStore store(direct_options(dir));
  CHECK_FALSE(store.uses_daemon());
  const fs::path expected = dir.path() / "state" / "0x0002c90300a1b2c3" / "port12.rrd";
  CHECK(store.path(kNode, 12) == expected.string());

  PortRecord first;
  first.time = 1700000000.125;
  first.raw[source_index(counters::Counter::xmit_data)] = kCounterMax64 - 1;
  first.raw[source_index(counters::Counter::rcv_data)] = 0;
  first.raw[source_index(counters::Counter::xmit_pkts)] = 1;
  first.raw[source_index(counters::Counter::symbol_errors)] = 65534;
  first.extended = true;
  first.pma_cap_mask = 0x5600;
  store.write(kNode, 12, first);
  CHECK(fs::is_regular_file(expected));
  CHECK(store.read(kNode, 12) == first);

  PortRecord second;
  second.time = 1700000061.627;
  second.raw[source_index(counters::Counter::xmit_data)] = kCounterMax64 - 1;
  second.raw[source_index(counters::Counter::rcv_data)] = 0;
  second.raw[source_index(counters::Counter::xmit_pkts)] = std::uint64_t{1} << 53 | 1;
  second.raw[source_index(counters::Counter::symbol_errors)] = 65535;     // at its 16-bit maximum
  second.raw[source_index(counters::Counter::rcv_pkts)] = kCounterMax64;  // at its 64-bit maximum
  second.saturated = counters::counter_bit(counters::Counter::symbol_errors) |
                     counter_bit(counters::Counter::rcv_pkts);
  second.extended = true;
  second.last_reset = 1699999999.5;
  second.reset_mask = 0x1ffff;
  store.write(kNode, 12, second);

  std::optional<PortRecord> back = store.read(kNode, 12);
  REQUIRE(back);
  CHECK(back->time == Approx(1700000061.627).margin(0.0005));
  CHECK(back->raw[source_index(counters::Counter::xmit_data)] == kCounterMax64 - 1);
  CHECK(back->raw[source_index(counters::Counter::rcv_data)] == 0u);
  CHECK(back->raw[source_index(counters::Counter::xmit_pkts)] == (std::uint64_t{1} << 53 | 1));
  CHECK(back->raw[source_index(counters::Counter::symbol_errors)] == counters::counter_max(16));
  CHECK(back->raw[source_index(counters::Counter::rcv_pkts)] == kCounterMax64);
  CHECK_FALSE(back->raw[source_index(counters::Counter::link_downed)]);
  CHECK(back->saturated == second.saturated);
  CHECK(back->extended);
  CHECK_FALSE(back->pma_cap_mask);
  REQUIRE(back->last_reset);
  CHECK(*back->last_reset == Approx(1699999999.5).margin(0.0005));
  CHECK(back->reset_mask == 0x1ffffu);
  CHECK(*back == second);

  // Other ports and nodes have no state yet.
  CHECK_FALSE(store.read(kNode, 1));
  CHECK_FALSE(store.read(0x1234, 12));
}

TEST_CASE("RRD turns the raw counters into exact rates even above 2^53") {
  TempDir dir("rates");
  PortStore store(direct_options(dir));
  const time_t t0 = 1700000040;  // on a 60 s boundary, so that a row is one whole interval
  const std::uint64_t big = (std::uint64_t{1} << 60) + 12345;

  PortRecord r;
  r.time = static_cast<double>(t0);
  r.raw[source_index(counters::Counter::xmit_data)] = big;
  r.raw[source_index(counters::Counter::rcv_pkts)] = 1000;
  store.write(kNode, 1, r);
  r.time += 60;
  r.raw[source_index(counters::Counter::xmit_data)] =
      big + 6000;                                           // 100/s; doubles would be off by 256
  r.raw[source_index(counters::Counter::rcv_pkts)] = 1120;  // 2/s
  store.write(kNode, 1, r);

  const std::string path = store.path(kNode, 1);
  CHECK(fetched_average(path, "xmit_data", t0 + 60, 60) == Approx(100.0).epsilon(1e-12));
  CHECK(fetched_average(path, "rcv_pkts", t0 + 60, 60) == Approx(2.0).epsilon(1e-12));
  CHECK(std::isnan(fetched_average(path, "symbol_errors", t0 + 60, 60)));  // never read
}

TEST_CASE("a counter whose attribute changed makes no rate in the RRD's history") {
  // symbol_errors from the 16-bit PortCounters, then from the 64-bit PortCountersExtended (a
  // different counter in the agent): the jump between them is not a rate.
  TempDir dir("source-change");
  PortStore store(direct_options(dir));
  const time_t t0 = 1700000040;
  PortRecord r;
  r.time = static_cast<double>(t0);
  r.extended = true;
  r.raw[source_index(counters::Counter::symbol_errors)] = 10;
  r.raw[source_index(counters::Counter::rcv_pkts)] = 1000;
  store.write(kNode, 1, r);
  PortRecord one_mad = r;
  one_mad.time += 60;
  one_mad.all_extended = true;
  one_mad.raw[source_index(counters::Counter::symbol_errors)] = 9'000'000;
  one_mad.raw[source_index(counters::Counter::rcv_pkts)] = 1120;  // 2/s, same attribute
  one_mad.rrd_unknown = source_changed(r, one_mad);
  store.write(kNode, 1, one_mad);
  PortRecord next = one_mad;
  next.time += 60;
  next.rrd_unknown = 0;
  next.raw[source_index(counters::Counter::symbol_errors)] = 9'000'060;  // 1/s
  next.raw[source_index(counters::Counter::rcv_pkts)] = 1240;
  store.write(kNode, 1, next);

  const std::string path = store.path(kNode, 1);
  CHECK(std::isnan(fetched_average(path, "symbol_errors", t0 + 60, 60)));  // across the change
  CHECK(fetched_average(path, "rcv_pkts", t0 + 60, 60) == Approx(2.0).epsilon(1e-12));
  CHECK(fetched_average(path, "rcv_pkts", t0 + 120, 60) == Approx(2.0).epsilon(1e-12));
  // The RRD's last value after a U is unknown too: the next interval has no rate either (the
  // sample record carries the exact reading to the next run).
  CHECK(std::isnan(fetched_average(path, "symbol_errors", t0 + 120, 60)));
  const std::optional<PortRecord> back = store.read(kNode, 1);
  REQUIRE(back);
  CHECK(back->all_extended);
  CHECK(back->raw[source_index(counters::Counter::symbol_errors)] == 9'000'060u);
}

TEST_CASE("bad state files are errors naming the file and missing ones are no state") {
  TempDir dir("errors");
  PortStore store(direct_options(dir));

  SECTION("missing file: nothing, and nothing made") {
    CHECK_FALSE(store.read(kNode, 1));
    CHECK_FALSE(fs::exists(dir.path() / "state"));
  }

  SECTION("random bytes") {
    fs::create_directories(store.node_dir(kNode));
    const std::string path = store.path(kNode, 2);
    std::ofstream out(path, std::ios::binary);
    std::mt19937 random(42);
    for (int i = 0; i < 4096; ++i) out.put(static_cast<char>(random()));
    out.close();
    CHECK_THROWS_AS(store.read(kNode, 2), StateError);
    CHECK_THROWS_WITH(store.read(kNode, 2), Catch::StartsWith(path + ": "));
  }

  SECTION("an RRD of someone else's") {
    fs::create_directories(store.node_dir(kNode));
    const std::string path = store.path(kNode, 3);
    create_with_librrd(path, {"DS:temperature:GAUGE:120:U:U", "RRA:AVERAGE:0.5:1:10"}, 60);
    CHECK_THROWS_WITH(store.read(kNode, 3),
                      Catch::StartsWith(path + ": ") && Catch::Contains("not an ibpm port RRD"));
  }

  SECTION("our data sources at another step are ours: --rrd-step changed since") {
    fs::create_directories(store.node_dir(kNode));
    const std::string path = store.path(kNode, 4);
    create_with_librrd(path, create_definitions(RrdLayout{300s, 900s}), 300);
    CHECK_FALSE(store.read(kNode, 4));
    PortRecord record;
    record.time = 1700000400.5;
    record.raw[0] = 42;
    store.write(kNode, 4, record);
    const auto back = store.read(kNode, 4);
    REQUIRE(back);
    CHECK(back->raw[0] == 42u);
  }

  SECTION("our data sources in another order") {
    fs::create_directories(store.node_dir(kNode));
    const std::string path = store.path(kNode, 6);
    auto definitions = create_definitions(RrdLayout{});
    std::swap(definitions[0], definitions[1]);
    create_with_librrd(path, definitions, 60);
    CHECK_THROWS_WITH(store.read(kNode, 6), Catch::Contains("not an ibpm port RRD"));
  }

  SECTION("made but never updated: no previous sample") {
    fs::create_directories(store.node_dir(kNode));
    create_with_librrd(store.path(kNode, 5), create_definitions(RrdLayout{}), 60);
    CHECK_FALSE(store.read(kNode, 5));
  }

  SECTION("an update not after the last one is refused") {
    PortRecord r;
    r.time = 1700000000.5;
    r.raw[0] = 7;
    store.write(kNode, 6, r);
    PortRecord same = r;
    same.raw[0] = 8;
    CHECK_THROWS_WITH(store.write(kNode, 6, same), Catch::StartsWith(store.path(kNode, 6) + ": "));
    PortRecord earlier = same;
    earlier.time = 1700000000.25;
    CHECK_THROWS_AS(store.write(kNode, 6, earlier), StateError);
    CHECK(store.read(kNode, 6) == r);
    PortRecord bad = r;
    bad.time = -1;
    CHECK_THROWS_WITH(store.write(kNode, 6, bad), Catch::StartsWith(store.path(kNode, 6) + ": "));
  }

  SECTION("creating leaves no temporary file behind") {
    PortRecord r;
    r.time = 1700000000;
    store.write(kNode, 7, r);
    store.write(kNode, 8, r);
    CHECK(names_in(store.node_dir(kNode)) == std::set<std::string>{"port7.rrd", "port8.rrd"});
    CHECK((fs::status(store.node_dir(kNode)).permissions() & fs::perms::others_read) !=
          fs::perms::none);
  }
}

TEST_CASE("runs on one node serialize: 100 read-then-write cycles from 4 processes") {
  TempDir dir("concurrent");
  const StoreOptions options = direct_options(dir);
  constexpr int kChildren = 4;
  constexpr int kCycles = 25;
  constexpr double kStart = 1700000000.25;

  std::vector<pid_t> children;
  for (int c = 0; c < kChildren; ++c) {
    const pid_t pid = ::fork();
    REQUIRE(pid >= 0);
    if (pid == 0) {
      int status = 0;
      try {
        PortStore store(options);
        for (int i = 0; i < kCycles; ++i) {
          NodeLocks lock = store.lock_nodes({kNode}, std::chrono::steady_clock::now() + 60s);
          std::optional<PortRecord> previous = store.read(kNode, 1);
          PortRecord next;
          next.time = previous ? previous->time + 1 : kStart;
          next.raw[source_index(counters::Counter::xmit_pkts)] =
              previous ? *previous->raw[source_index(counters::Counter::xmit_pkts)] + 1 : 1;
          store.write(kNode, 1, next);
        }
      } catch (const std::exception& e) {
        std::fprintf(stderr, "child %d: %s\n", c, e.what());
        status = 1;
      }
      ::_exit(status);
    }
    children.push_back(pid);
  }
  for (pid_t pid : children) {
    int status = 0;
    REQUIRE(::waitpid(pid, &status, 0) == pid);
    CHECK(WIFEXITED(status));
    CHECK(WEXITSTATUS(status) == 0);
  }

  PortStore store(options);
  std::optional<PortRecord> last = store.read(kNode, 1);
  REQUIRE(last);
  CHECK(last->raw[source_index(counters::Counter::xmit_pkts)] == 100u);
  CHECK(last->time == Approx(kStart + 99).margin(0.0005));
  CHECK(names_in(store.node_dir(kNode)) == std::set<std::string>{"port1.rrd"});
}

TEST_CASE("RRDCACHED_ADDRESS selects the daemon when no address is given") {
  TempDir dir("env");
  StoreOptions options = direct_options(dir);
  CHECK_FALSE(PortStore(options).uses_daemon());
  const std::string socket = (dir.path() / "no-daemon.sock").string();
  ::setenv("RRDCACHED_ADDRESS", ("unix:" + socket).c_str(), 1);
  PortStore store(options);
  ::unsetenv("RRDCACHED_ADDRESS");
  CHECK(store.uses_daemon());
  PortRecord r;
  r.time = 1700000000;
  CHECK_THROWS_WITH(store.write(kNode, 1, r),
                    Catch::StartsWith(store.path(kNode, 1) + ": ") && Catch::Contains("rrdcached"));
}

TEST_CASE("an empty RRDCACHED_ADDRESS writes the files directly") {
  // /etc/ibpm/ibpm.env turns the packaged daemon off this way: RRDCACHED_ADDRESS= (empty).
  TempDir dir("env-empty");
  ::setenv("RRDCACHED_ADDRESS", "", 1);
  CHECK(daemon_address("").empty());
  PortStore store(direct_options(dir));
  ::unsetenv("RRDCACHED_ADDRESS");
  CHECK_FALSE(store.uses_daemon());
  PortRecord r;
  r.time = 1700000000;
  store.write(kNode, 1, r);
  CHECK(names_in(store.node_dir(kNode)) == std::set<std::string>{"port1.rrd"});
}

TEST_CASE("a file the disk cannot take gives the system's reason, not librrd's silence") {
  TempDir dir("full");
  const StoreOptions options = direct_options(dir);
  const pid_t pid = ::fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    // A disk that fills after 64 kB: writes past it fail with EFBIG instead of a signal.
    ::signal(SIGXFSZ, SIG_IGN);
    rlimit limit{64 * 1024, 64 * 1024};
    ::setrlimit(RLIMIT_FSIZE, &limit);
    int status = 3;
    try {
      PortStore store(options);
      PortRecord record;
      record.time = 1700000000;
      store.write(kNode, 1, record);
      status = 1;  // written: the limit did not bite
    } catch (const StateError& e) {
      const std::string what = e.what();
      std::fprintf(stderr, "%s\n", what.c_str());
      status = what.find("librrd gave no reason") == std::string::npos ? 0 : 2;
    }
    ::_exit(status);
  }
  int status = 0;
  REQUIRE(::waitpid(pid, &status, 0) == pid);
  REQUIRE(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 0);
}

TEST_CASE("a file whose last update is ahead of the clock is an error naming it and by how much") {
  TempDir dir("ahead");
  PortStore store(direct_options(dir));
  // Whole seconds: RRD's last update is one.
  const double now = std::floor(
      std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count());
  const std::string path = store.path(kNode, 3);
  const auto an_hour_ahead = [&](const std::string& text) {
    return text == path + ": last update 3600 s ahead of the clock" ||
           text == path + ": last update 3599 s ahead of the clock";
  };
  const auto thrown = [&](PortNumber port) {
    try {
      store.read(kNode, port);
    } catch (const StateError& e) {
      return std::string(e.what());
    }
    return std::string("(nothing thrown)");
  };

  // Written while the clock was an hour ahead.
  PortRecord future;
  future.time = now + 3600;
  future.raw[0] = 7;
  store.write(kNode, 3, future);
  CHECK(an_hour_ahead(thrown(3)));

  // No update can go in after it: the refusal says why, not librrd's "illegal attempt".
  PortRecord today = future;
  today.time = now;
  const auto errors = store.write_all({{kNode, 3, &today, true}});
  REQUIRE(errors.size() == 1);
  INFO(errors[0]);
  CHECK(an_hour_ahead(errors[0]));

  // Within the tolerance it is the past: another host's clock, a correction of a second.
  PortRecord close = future;
  close.time = now + 1;
  store.write(kNode, 4, close);
  CHECK(store.read(kNode, 4) == close);
}

TEST_CASE("in a state folder shared with its group the port files are the group's to write too") {
  TempDir dir("group-shared");
  const StoreOptions options = direct_options(dir);
  const mode_t umask_before = ::umask(0022);
  REQUIRE(::mkdir(options.state_dir.c_str(), 0700) == 0);
  PortRecord record;
  record.time = 1700000000.125;
  const auto mode_of = [](const fs::path& path) {
    struct stat st {};
    REQUIRE(::lstat(path.c_str(), &st) == 0);
    return static_cast<unsigned>(st.st_mode & 07777);
  };
  const fs::path node = fs::path(options.state_dir) / "0x0002c90300a1b2c3";
  SECTION("a folder of the owner's alone: 0755 and 0644, as librrd makes them") {
    PortStore(options).write(kNode, 1, record);
    CHECK(mode_of(node) == 0755);
    CHECK(mode_of(node / "port1.rrd") == 0644);
  }
  SECTION("setgid and group-writable (the package's 3775): the group's rrdcached writes them") {
    REQUIRE(::chmod(options.state_dir.c_str(), 03775) == 0);
    PortStore(options).write(kNode, 1, record);
    CHECK(mode_of(node) == 03775);
    CHECK(mode_of(node / "port1.rrd") == 0664);
  }
  SECTION("a link planted at a port's file is refused, not written through") {
    REQUIRE(::chmod(options.state_dir.c_str(), 03775) == 0);
    PortStore(options).write(kNode, 1, record);
    const fs::path elsewhere = dir.path() / "elsewhere.rrd";
    fs::copy_file(node / "port1.rrd", elsewhere);
    fs::create_symlink(elsewhere, node / "port2.rrd");
    const auto before = fs::last_write_time(elsewhere);
    CHECK_THROWS_WITH(PortStore(options).write(kNode, 2, record),
                      Catch::Contains("port2.rrd: is a symbolic link (not followed)"));
    CHECK_THROWS_WITH(PortStore(options).read(kNode, 2),
                      Catch::Contains("port2.rrd: is a symbolic link (not followed)"));
    CHECK(fs::last_write_time(elsewhere) == before);
  }
  ::umask(umask_before);
}
