// SPDX-License-Identifier: MIT
// The sample record: what a run keeps for the next one, written whole and read back exactly, and
// an empty record with a warning (never an exception) when the file is not one.
#include <sys/stat.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>

#include "state/sample_record.hpp"
#include "support/direct_store.hpp"
#include "support/temp_dir.hpp"

using namespace ibpm;
using namespace ibpm::state;
using namespace ibpm::state::test;
using ibpm::test::TempDir;

namespace {

PortMemory memory_of(double time, std::uint64_t xmit) {
  PortMemory m;
  m.sample.time = time;
  m.sample.raw[source_index(counters::Counter::xmit_data)] = xmit;
  m.sample.raw[source_index(counters::Counter::symbol_errors)] = 65535;
  m.sample.saturated = counters::counter_bit(counters::Counter::symbol_errors);
  m.sample.extended = true;
  m.sample.pma_cap_mask = 0x5600;
  m.sample.last_reset = time - 100.25;
  m.sample.reset_mask = 3;
  LinkState live;
  live.state = PortState::active;
  live.width = LinkWidth::x4;
  live.speed = LinkSpeed::hdr;
  live.widths_enabled.insert(LinkWidth::x1);
  live.widths_enabled.insert(LinkWidth::x4);
  live.speeds_enabled.insert(LinkSpeed::hdr);
  m.live = live;
  m.port_info_age = 7;
  m.reported = 2;
  m.errors.since = time - 7000;
  m.errors.intervals = {{time - 600, 60, {12, 0}}, {time, 59.5, {3, 4000000000u}}};
  return m;
}

void check_same(const PortMemory& a, const PortMemory& b) {
  CHECK(a.sample == b.sample);
  REQUIRE(a.live.has_value() == b.live.has_value());
  if (a.live) {
    CHECK(a.live->state == b.live->state);
    CHECK(a.live->width == b.live->width);
    CHECK(a.live->speed == b.live->speed);
    CHECK(a.live->widths_enabled == b.live->widths_enabled);
    CHECK(a.live->speeds_enabled == b.live->speeds_enabled);
  }
  CHECK(a.port_info_age == b.port_info_age);
  CHECK(a.reported == b.reported);
  CHECK(a.errors == b.errors);
}

std::string read_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

void write_bytes(const std::string& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
}

}  // namespace

TEST_CASE("a sample record is read back exactly as it was saved") {
  TempDir dir("record");
  const std::string path = SampleRecord::path_for(dir.path().string(), "fabric");
  CHECK(path == (dir.path() / "samples" / "fabric.rec").string());

  std::string warning;
  CHECK(SampleRecord::load(path, warning).size() == 0);  // none yet: empty, no warning
  CHECK(warning.empty());

  SampleRecord record;
  record.runs = 41;
  record.put(0x0002c90300a1b2c3, 3, memory_of(1700000000.125, ~std::uint64_t{0} - 1));
  PortMemory bare;  // nothing but a time: no live PortInfo, no state, unread counters
  bare.sample.time = 1700000001;
  record.put(0x8002c90300a1b2c3, 255, bare);
  record.save(path);

  const SampleRecord loaded = SampleRecord::load(path, warning);
  CHECK(warning.empty());
  CHECK(loaded.runs == 41);
  REQUIRE(loaded.size() == 2);
  REQUIRE(loaded.find(0x0002c90300a1b2c3, 3));
  check_same(*loaded.find(0x0002c90300a1b2c3, 3), *record.find(0x0002c90300a1b2c3, 3));
  REQUIRE(loaded.find(0x8002c90300a1b2c3, 255));
  check_same(*loaded.find(0x8002c90300a1b2c3, 255), bare);
  CHECK_FALSE(loaded.find(0x0002c90300a1b2c3, 4));
  CHECK_FALSE(loaded.find(0x0002c90300a1b2c4, 3));
  // Nothing but the record in its folder: no temporary file left.
  CHECK(std::distance(std::filesystem::directory_iterator(dir.path() / "samples"),
                      std::filesystem::directory_iterator()) == 1);
}

TEST_CASE("a sample record keeps an all-64-bit sample and the packed capabilities") {
  TempDir dir("record-onemad");
  const std::string path = SampleRecord::path_for(dir.path().string(), "fabric");
  SampleRecord record;
  PortMemory m = memory_of(1700000000.5, 12345);
  m.sample.all_extended = true;
  m.sample.raw[source_index(counters::Counter::symbol_errors)] = ~std::uint64_t{0};
  m.sample.raw[source_index(counters::Counter::rcv_errors)] = 1ULL << 40;
  m.sample.pma_cap_mask = 0x80021200u;
  record.put(0x0002c90300a1b2c3, 1, m);
  record.put(0x0002c90300a1b2c3, 2, memory_of(1700000000.5, 6789));  // two MADs: flag clear
  record.save(path);

  std::string warning;
  const SampleRecord loaded = SampleRecord::load(path, warning);
  CHECK(warning.empty());
  REQUIRE(loaded.find(0x0002c90300a1b2c3, 1));
  check_same(*loaded.find(0x0002c90300a1b2c3, 1), m);
  CHECK(loaded.find(0x0002c90300a1b2c3, 1)->sample.all_extended);
  REQUIRE(loaded.find(0x0002c90300a1b2c3, 2));
  CHECK_FALSE(loaded.find(0x0002c90300a1b2c3, 2)->sample.all_extended);
  CHECK(loaded.find(0x0002c90300a1b2c3, 2)->sample.extended);
}

TEST_CASE("a record that is not one, corrupt, cut or of another version is empty with a warning") {
  TempDir dir("record-bad");
  const std::string path = SampleRecord::path_for(dir.path().string(), "shard-1-of-2");
  SampleRecord record;
  for (PortNumber p = 1; p <= 36; ++p) record.put(0x1234, p, memory_of(1700000000 + p, p));
  record.save(path);
  const std::string good = read_bytes(path);

  std::string warning;
  SECTION("every single flipped byte is noticed") {
    for (std::size_t i = 0; i < good.size(); i += 7) {
      std::string bad = good;
      bad[i] = static_cast<char>(bad[i] ^ 0x40);
      write_bytes(path, bad);
      warning.clear();
      CHECK(SampleRecord::load(path, warning).size() == 0);
      CHECK_THAT(warning, Catch::StartsWith(path + ": "));
    }
  }
  SECTION("cut short or padded") {
    write_bytes(path, good.substr(0, good.size() - 100));
    CHECK(SampleRecord::load(path, warning).size() == 0);
    CHECK_THAT(warning, Catch::Contains("truncated"));
    write_bytes(path, good + "x");
    CHECK(SampleRecord::load(path, warning).size() == 0);
  }
  SECTION("another file") {
    write_bytes(path, "0x0002c90300a1b2c3 \"leaf01\"\n");
    CHECK(SampleRecord::load(path, warning).size() == 0);
    CHECK_THAT(warning, Catch::Contains("not a sample record"));
    write_bytes(path, "");
    CHECK(SampleRecord::load(path, warning).size() == 0);
  }
  SECTION("entries of another size") {
    std::string other = good;
    other[12] = static_cast<char>(other[12] + 1);
    write_bytes(path, other);
    CHECK(SampleRecord::load(path, warning).size() == 0);
    CHECK_THAT(warning,
               Catch::Contains("sample record entries of ") && !Catch::Contains("version"));
  }
  SECTION("another version") {
    std::string other = good;
    other[8] = static_cast<char>(SampleRecord::kVersion + 1);
    write_bytes(path, other);
    CHECK(SampleRecord::load(path, warning).size() == 0);
    CHECK_THAT(warning, Catch::Contains("version"));
  }
  SECTION("numbers are little-endian whatever the host; the other order is another version") {
    CHECK(good.substr(8, 4) == std::string({static_cast<char>(SampleRecord::kVersion), 0, 0, 0}));
    std::string swapped = good;  // as a big-endian host wrote it before the order was fixed
    std::reverse(swapped.begin() + 8, swapped.begin() + 12);
    write_bytes(path, swapped);
    CHECK(SampleRecord::load(path, warning).size() == 0);
    CHECK_THAT(warning, Catch::Contains("sample record version " +
                                        std::to_string(SampleRecord::kVersion << 24) + ", not "));
  }
}

TEST_CASE("record names cannot leave the samples folder") {
  CHECK(SampleRecord::path_for("/s", "node-0x0002c90300a1b2c3") ==
        "/s/samples/node-0x0002c90300a1b2c3.rec");
  CHECK(SampleRecord::path_for("/s/", "../../etc/passwd") == "/s/samples/_.._.._etc_passwd.rec");
  CHECK(SampleRecord::path_for("/s", "") == "/s/samples/_.rec");
}

TEST_CASE("a FIFO or a device as the record is refused, not read") {
  TempDir dir("record-fifo");
  const std::string path = SampleRecord::path_for(dir.path().string(), "sweep");
  std::filesystem::create_directories(std::filesystem::path(path).parent_path());
  std::string warning;
  SECTION("a FIFO nobody writes to") {
    REQUIRE(::mkfifo(path.c_str(), 0600) == 0);
    CHECK(SampleRecord::load(path, warning).size() == 0);
    CHECK(warning == path + ": not a regular file");
  }
  SECTION("a link to /dev/zero") {
    std::filesystem::create_symlink("/dev/zero", path);
    CHECK(SampleRecord::load(path, warning).size() == 0);
    CHECK(warning == path + ": not a regular file");
  }
  SECTION("a header that accounts for less than the file") {
    SampleRecord record;
    record.put(0x1234, 1, memory_of(1700000000, 1));
    record.save(path);
    write_bytes(path, read_bytes(path) + std::string(1 << 20, '\0'));
    CHECK(SampleRecord::load(path, warning).size() == 0);
    CHECK_THAT(warning, Catch::Contains(" bytes for 1 ports: truncated or padded"));
  }
}
