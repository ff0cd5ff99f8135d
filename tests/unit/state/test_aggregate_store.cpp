// SPDX-License-Identifier: MIT
// The per-subtree aggregate files (PortStore::write_aggregates, read_aggregates): written
// directly, through a local rrdcached (read after its pending updates are flushed) and through a
// central store over TCP (named relative to its base folder, its folders made by the daemon).
#include <catch2/catch.hpp>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <memory>

#include "state/port_store.hpp"
#include "state/state_error.hpp"
#include "support/rrdcached_daemon.hpp"
#include "support/skip.hpp"
#include "support/temp_dir.hpp"

using namespace ibpm;
using namespace ibpm::state;
using ibpm::test::Listen;
using ibpm::test::Rrdcached;
using ibpm::test::TempDir;
namespace fs = std::filesystem;

namespace {

// Two updates a minute apart of subtree "s1", ending a minute ago; the second's values.
PortStore::AggregateWrite write_two(const PortStore& store, const std::string& scope,
                                    std::time_t& second) {
  second = (std::time(nullptr) / 60) * 60 - 60;
  PortStore::AggregateWrite w{"s1", {1e9, 2e9, 3e8, 4e8, 24}};
  for (const std::string& e : store.write_aggregates(scope, static_cast<double>(second - 60), {w}))
    REQUIRE(e.empty());
  w.values = {5e9, 6e9, 7e8, 8e8, 24};
  for (const std::string& e : store.write_aggregates(scope, static_cast<double>(second), {w}))
    REQUIRE(e.empty());
  return w;
}

// The row that ends at `end` of subtree s1 in `scope`, as read_aggregates gives it.
std::vector<double> row_at(const PortStore& store, const std::string& scope, std::time_t end) {
  const std::string name = "s1";
  std::vector<double> values;
  store.read_aggregates(
      1,
      [&](std::size_t) {
        return std::pair{&scope, &name};
      },
      "AVERAGE", end - 60, end,
      [&](std::size_t, FetchedRows&& rows) {
        REQUIRE(rows.sources == kAggregateSourceCount);
        CHECK(rows.names.front() == "gen");
        for (std::size_t r = 0; r < rows.rows(); ++r)
          if (static_cast<std::time_t>(rows.start + (r + 1) * rows.step) == end)
            for (std::size_t v = 0; v < rows.sources; ++v) values.push_back(rows.value(r, v));
      });
  return values;
}

}  // namespace

TEST_CASE("aggregate files are written and read directly") {
  TempDir dir("aggregates-direct");
  const PortStore store(StoreOptions{(dir.path() / "state").string(), "", {}});
  std::time_t second = 0;
  const auto written = write_two(store, "shard-1-of-2", second);
  CHECK(store.aggregate_scopes() == std::vector<std::string>{"shard-1-of-2"});
  CHECK(fs::exists(dir.path() / "state/aggregates/shard-1-of-2/s1.rrd"));
  const std::vector<double> row = row_at(store, "shard-1-of-2", second);
  REQUIRE(row.size() == kAggregateSourceCount);
  for (std::size_t v = 0; v < row.size(); ++v) CHECK(row[v] == Approx(written.values[v]));
  // A port's file where a subtree's should be is refused, naming it.
  PortRecord port;
  port.time = static_cast<double>(second - 120);
  port.raw[0] = 1;
  store.write(0x0002c90300a1b2c3, 1, port);
  fs::copy_file(store.path(0x0002c90300a1b2c3, 1),
                dir.path() / "state/aggregates/shard-1-of-2/s2.rrd");
  const std::string scope = "shard-1-of-2", foreign = "s2";
  CHECK_THROWS_WITH(store.read_aggregates(
                        1,
                        [&](std::size_t) {
                          return std::pair{&scope, &foreign};
                        },
                        "AVERAGE", second - 60, second, [](std::size_t, FetchedRows&&) {}),
                    Catch::Contains("s2.rrd: not an ibpm aggregate RRD"));
}

TEST_CASE("aggregate files through a local rrdcached are read with its pending updates") {
  if (!fs::exists(ibpm::test::kRrdcached)) IBPM_SKIP("rrdcached is not installed");
  TempDir dir("aggregates-local-daemon");
  Rrdcached daemon(dir.path());
  REQUIRE(daemon.wait_until_listening());
  // The daemon's base is DIR/state: the collector's state folder is there.
  const PortStore store(StoreOptions{(dir.path() / "state").string(), daemon.address(), {}});
  REQUIRE_FALSE(store.central_store());
  std::time_t second = 0;
  const auto written = write_two(store, "fabric", second);
  // The daemon holds the second update (-w 3600): the read flushes it first.
  const std::vector<double> row = row_at(store, "fabric", second);
  REQUIRE(row.size() == kAggregateSourceCount);
  CHECK(row[0] == Approx(written.values[0]));
}

TEST_CASE("aggregate files through a central store are named relative to its base") {
  if (!fs::exists(ibpm::test::kRrdcached)) IBPM_SKIP("rrdcached is not installed");
  TempDir dir("aggregates-central");
  auto daemon = std::make_unique<Rrdcached>(dir.path(), Listen::tcp);
  REQUIRE(daemon->wait_until_listening());
  const PortStore collector(
      StoreOptions{(dir.path() / "collector").string(), daemon->address(), {}});
  REQUIRE(collector.central_store());
  CHECK(collector.aggregate_rrd_name("shard-2-of-2", "s1") == "aggregates/shard-2-of-2/s1.rrd");
  CHECK(collector.aggregate_scopes().empty());  // no sweep has made the folder yet
  std::time_t second = 0;
  const auto written = write_two(collector, "shard-2-of-2", second);
  // Listed and read through the daemon (FETCH writes the update it holds first).
  CHECK(collector.aggregate_scopes() == std::vector<std::string>{"shard-2-of-2"});
  const std::vector<double> fetched = row_at(collector, "shard-2-of-2", second);
  REQUIRE(fetched.size() == kAggregateSourceCount);
  CHECK(fetched[1] == Approx(written.values[1]));
  // A subtree the store lacks is absent, not an error.
  const std::string scope = "shard-2-of-2", missing = "s2";
  std::size_t calls = 0;
  collector.read_aggregates(
      1,
      [&](std::size_t) {
        return std::pair{&scope, &missing};
      },
      "AVERAGE", second - 60, second, [&](std::size_t, FetchedRows&&) { ++calls; });
  CHECK(calls == 0);
  // On the store's host, its base folder read as a state folder: the same row.
  const PortStore host(StoreOptions{(dir.path() / "state").string(), "", {}});
  CHECK(host.aggregate_scopes() == std::vector<std::string>{"shard-2-of-2"});
  const std::vector<double> row = row_at(host, "shard-2-of-2", second);
  REQUIRE(row.size() == kAggregateSourceCount);
  CHECK(row[2] == Approx(written.values[2]));
  CHECK(row == fetched);
}

TEST_CASE("a central store that does not allow LIST says so when its scopes are asked") {
  if (!fs::exists(ibpm::test::kRrdcached)) IBPM_SKIP("rrdcached is not installed");
  TempDir dir("aggregates-central-no-list");
  Rrdcached daemon(dir.path(), Listen::tcp, ibpm::test::Folders::made,
                   "BATCH,UPDATE,CREATE,FLUSH,PENDING,INFO,LAST,FETCH");
  REQUIRE(daemon.wait_until_listening());
  const PortStore collector(
      StoreOptions{(dir.path() / "collector").string(), daemon.address(), {}});
  std::time_t second = 0;
  write_two(collector, "fabric", second);
  try {
    collector.aggregate_scopes();
    FAIL("the scopes were listed without LIST");
  } catch (const StateError& e) {
    CHECK_THAT(e.what(), Catch::Contains("LIST allowed in its -P?"));
  }
}
