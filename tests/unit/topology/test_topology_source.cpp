// SPDX-License-Identifier: MIT
// TopologySource: which file wins (--cache over the state topology), when it discovers (never
// offline, only without a file when asked to, always when told to) and the slices it keeps.
#include <sys/stat.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <fstream>
#include <iterator>

#include "dump/ibnetdiscover_writer.hpp"
#include "fabric/fabric_snapshot.hpp"
#include "layout/state_layout.hpp"
#include "support/ibnd_cache_bytes.hpp"
#include "support/temp_dir.hpp"
#include "topology/cache_snapshot.hpp"
#include "topology/topology_source.hpp"

using namespace ibpm;
using namespace ibpm::topology;
using ibpm::test::TempDir;

namespace {

constexpr Guid kLeaf = 0x100, kHost = 0x300, kOther = 0x400;

// A leaf with one host cabled to it; the host's GUID and description tell the fabrics apart.
Fabric fabric_with_host(Guid host, const std::string& description) {
  Fabric f;
  f.add_node(kLeaf, NodeType::sw, "leaf01", 8);
  f.port({kLeaf, 0}).lid = 2;
  f.add_node(host, NodeType::ca, description, 1);
  f.port({host, 1}).lid = 3;
  f.connect({kLeaf, 1}, {host, 1});
  return f;
}

void write_dump(const std::filesystem::path& path, const Fabric& fabric) {
  std::filesystem::create_directories(path.parent_path());
  std::ofstream out(path);
  dump::write_ibnetdiscover(out, fabric);
}

bool has_node(const Topology& topology, Guid guid) { return topology.fabric.find(guid) != nullptr; }

// A discovery that counts its calls and finds the fabric with kOther.
struct FakeDiscovery {
  int calls = 0;
  TopologySource::Discover discover() {
    return [this](const DiscoveryOptions&) {
      ++calls;
      Topology topology;
      topology.fabric = fabric_with_host(kOther, "discovered HCA-1");
      topology.origin = "discovery";
      return topology;
    };
  }
};

TopologySource::Discover no_discovery() {
  return [](const DiscoveryOptions&) -> Topology {
    FAIL("discovered");
    return {};
  };
}

}  // namespace

TEST_CASE("offline without a topology file names the file and how to make it") {
  TempDir dir("topology-source");
  const std::string state_dir = (dir.path() / "state").string();
  const std::string expected = state_topology_path(state_dir);
  // The real libibnetdisc: were it asked, it would fail otherwise (no umad device here) or find
  // a fabric; offline it is never asked.
  const TopologySource source({.cache = "", .state_dir = state_dir});
  CHECK_THROWS_WITH(source.load(TopologyRefresh::offline),
                    Catch::StartsWith("no topology file " + expected + ": ") &&
                        Catch::Contains("check_ib_fabric") && Catch::Contains("--cache"));
  const TopologySource fake({.state_dir = state_dir}, no_discovery());
  CHECK_THROWS_WITH(fake.load(TopologyRefresh::offline), Catch::Contains(expected));
  CHECK_FALSE(std::filesystem::exists(expected));
}

TEST_CASE("offline with a missing --cache file says it cannot open it") {
  TempDir dir("topology-source");
  const std::string missing = (dir.path() / "missing.ibnetdiscover").string();
  const TopologySource source({.cache = missing, .state_dir = (dir.path() / "state").string()},
                              no_discovery());
  CHECK_THROWS_WITH(source.load(TopologyRefresh::offline), Catch::Contains(missing));
}

TEST_CASE("a --cache file wins over the state topology, which wins over a discovery") {
  TempDir dir("topology-source");
  const std::string state_dir = (dir.path() / "state").string();
  const std::filesystem::path cache = dir.path() / "cache.ibnetdiscover";
  write_dump(cache, fabric_with_host(kHost, "cached HCA-1"));
  write_dump(state_topology_path(state_dir), fabric_with_host(kOther, "saved HCA-1"));

  for (const TopologyRefresh refresh :
       {TopologyRefresh::offline, TopologyRefresh::discover_if_missing}) {
    const TopologySource with_cache({.cache = cache.string(), .state_dir = state_dir},
                                    no_discovery());
    CHECK(with_cache.cache_given());
    CHECK(with_cache.file() == cache.string());
    const Topology cached = with_cache.load(refresh);
    CHECK(cached.origin == cache.string());
    CHECK(has_node(cached, kHost));

    const TopologySource saved({.state_dir = state_dir}, no_discovery());
    CHECK_FALSE(saved.cache_given());
    CHECK(saved.file() == state_topology_path(state_dir));
    const Topology from_state = saved.load(refresh);
    CHECK(from_state.origin == state_topology_path(state_dir));
    CHECK(has_node(from_state, kOther));
  }
}

TEST_CASE("without a file, discover_if_missing discovers once and saves the state topology") {
  TempDir dir("topology-source");
  const std::string state_dir = (dir.path() / "state").string();
  FakeDiscovery discovery;
  const TopologySource source({.state_dir = state_dir}, discovery.discover());
  CHECK(source.load(TopologyRefresh::discover_if_missing).origin == "discovery");
  CHECK(discovery.calls == 1);
  REQUIRE(std::filesystem::exists(state_topology_path(state_dir)));
  const Topology again = source.load(TopologyRefresh::discover_if_missing);
  CHECK(discovery.calls == 1);
  CHECK(again.origin == state_topology_path(state_dir));
  CHECK(has_node(again, kOther));
}

TEST_CASE("discover_now discovers even with files at hand, and rewrites only the state topology") {
  TempDir dir("topology-source");
  const std::string state_dir = (dir.path() / "state").string();
  const std::filesystem::path cache = dir.path() / "cache.ibnetdiscover";
  write_dump(cache, fabric_with_host(kHost, "cached HCA-1"));
  write_dump(state_topology_path(state_dir), fabric_with_host(kHost, "saved HCA-1"));
  FakeDiscovery discovery;
  const TopologySource source({.cache = cache.string(), .state_dir = state_dir},
                              discovery.discover());
  CHECK(source.load(TopologyRefresh::discover_now).origin == "discovery");
  CHECK(discovery.calls == 1);
  CHECK(has_node(load_topology_file(state_topology_path(state_dir)), kOther));
  CHECK(has_node(load_topology_file(cache.string()), kHost));
}

TEST_CASE("a slice is kept per node and goes stale with the file it was cut from") {
  TempDir dir("topology-source");
  const std::string state_dir = (dir.path() / "state").string();
  const Fabric fabric = fabric_with_host(kHost, "cn0001 HCA-1");
  write_dump(state_topology_path(state_dir), fabric);
  const TopologySource source({.state_dir = state_dir}, no_discovery());
  CHECK_FALSE(source.load_slice("cn0001"));
  source.save_slice("cn0001", fabric, *fabric.find(kHost));
  const auto slice = source.load_slice("cn0001");
  REQUIRE(slice);
  CHECK(has_node(*slice, kHost));
  CHECK(has_node(*slice, kLeaf));
  CHECK_FALSE(source.load_slice("cn0002"));

  std::filesystem::last_write_time(
      state_topology_path(state_dir),
      std::filesystem::last_write_time(state_topology_path(state_dir)) + std::chrono::seconds(5));
  CHECK_FALSE(source.load_slice("cn0001"));
}

TEST_CASE("cache_or_discover reads --cache, else discovers and keeps nothing") {
  TempDir dir("topology-source");
  const std::string state_dir = (dir.path() / "state").string();
  // A state topology at hand is not what a command that only looks at the fabric reads.
  write_dump(state_topology_path(state_dir), fabric_with_host(kHost, "saved HCA-1"));
  FakeDiscovery discovery;
  const TopologySource live({.state_dir = state_dir}, discovery.discover());
  const Topology found = live.load(TopologyRefresh::cache_or_discover);
  CHECK(found.origin == "discovery");
  CHECK(discovery.calls == 1);
  CHECK(has_node(load_topology_file(state_topology_path(state_dir)), kHost));  // not replaced

  const std::string cache = (dir.path() / "given.ibnetdiscover").string();
  write_dump(cache, fabric_with_host(kOther, "given HCA-1"));
  const TopologySource given({.cache = cache, .state_dir = state_dir}, no_discovery());
  const Topology read = given.load(TopologyRefresh::cache_or_discover);
  CHECK(read.origin == cache);
  CHECK(has_node(read, kOther));
}

TEST_CASE("a libibnetdisc --cache is read through a copy of its fabric while it stays the same") {
  TempDir dir("topology-source");
  const std::string state_dir = (dir.path() / "state").string();
  const std::filesystem::path cache = dir.path() / "fabric.cache";
  const auto write_cache = [&] {
    const std::vector<unsigned char> bytes = test::small_ibnd_cache();
    std::ofstream(cache, std::ios::binary)
        .write(reinterpret_cast<const char*>(bytes.data()),
               static_cast<std::streamsize>(bytes.size()));
  };
  write_cache();
  const Fabric from_libibnetdisc = load_topology_file(cache.string()).fabric;
  const std::string copy = layout::StateLayout(state_dir).cache_snapshot();
  const TopologySource source({.cache = cache.string(), .state_dir = state_dir}, no_discovery());

  // The first load reads the cache through libibnetdisc and keeps the copy, field for field.
  const Topology first = source.load(TopologyRefresh::offline);
  CHECK(first.fabric == from_libibnetdisc);
  CHECK(first.origin == cache.string());
  REQUIRE(std::filesystem::exists(copy));
  std::ifstream in(copy, std::ios::binary);
  const std::string kept((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  CHECK(fabric_from_snapshot(kept, cache_identity(cache.string())) == from_libibnetdisc);

  // The next load takes the copy: one planted under the cache's identity is what it gets.
  const Fabric planted = fabric_with_host(kOther, "planted HCA-1");
  std::ofstream(copy, std::ios::binary) << fabric_snapshot(planted, cache_identity(cache.string()));
  CHECK(source.load(TopologyRefresh::discover_if_missing).fabric == planted);

  // The cache written again (a new modification time): libibnetdisc reads it, the copy follows.
  std::filesystem::last_write_time(
      cache, std::filesystem::last_write_time(cache) + std::chrono::seconds(2));
  CHECK(source.load(TopologyRefresh::offline).fabric == from_libibnetdisc);
  CHECK(source.load(TopologyRefresh::offline).fabric == from_libibnetdisc);
  write_cache();
  CHECK(source.load(TopologyRefresh::offline).fabric == from_libibnetdisc);

  // A damaged copy is only read around.
  std::filesystem::resize_file(copy, std::filesystem::file_size(copy) / 2);
  CHECK(source.load(TopologyRefresh::offline).fabric == from_libibnetdisc);
  // So is a FIFO planted in its place: never waited on, replaced by the copy.
  std::filesystem::remove(copy);
  REQUIRE(::mkfifo(copy.c_str(), 0600) == 0);
  CHECK(source.load(TopologyRefresh::offline).fabric == from_libibnetdisc);
  CHECK(std::filesystem::is_regular_file(copy));

  // A state folder that cannot hold the copy (a file stands in its way): the cache as it is.
  const std::filesystem::path blocked = dir.path() / "not-a-folder";
  std::ofstream(blocked) << "x";
  const TopologySource read_only({.cache = cache.string(), .state_dir = blocked.string()},
                                 no_discovery());
  CHECK(read_only.load(TopologyRefresh::offline).fabric == from_libibnetdisc);
}
