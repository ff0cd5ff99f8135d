// SPDX-License-Identifier: MIT
// --record and --replay without a fabric: the frames as they travel (LRH/BTH/DETH in an ERF
// record), a recording written by PcapRecorder read back by ReplaySource (answers by what was
// asked, not by transaction id; timeouts; a query never asked named), the engine answering from
// it, and every kind of bad file refused with one line.
#include <pcap/pcap.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>

#include "mad/ib_frame.hpp"
#include "mad/mad_link.hpp"
#include "mad/mad_packet.hpp"
#include "mad/pcap_library.hpp"
#include "mad/pma.hpp"
#include "mad/record_rotation.hpp"
#include "mad/smp.hpp"
#include "support/temp_dir.hpp"

using namespace ibpm;
using namespace ibpm::mad;

namespace recording_test {

using Time = std::chrono::system_clock::time_point;
constexpr unsigned kLocalLid = 1;

Time at_ms(long ms) { return Time(std::chrono::milliseconds(1'800'000'000'000 + ms)); }

// The packet of `query` as the engine sends it, with transaction id `tid`.
Packet request(const MadQuery& query, std::uint32_t tid) {
  Packet packet{};
  build_packet(query, packet);
  set_tid(packet, tid);
  return packet;
}

// Its answer as umad hands it over: method GetResp, the kernel's high TID bits set, `fill` in
// the attribute data, `status` as MAD status.
Packet response(const MadQuery& query, std::uint32_t tid, std::uint8_t fill,
                std::uint16_t status = 0) {
  Packet packet = request(query, tid);
  auto* mad = static_cast<std::uint8_t*>(umad_get_mad(packet.data()));
  mad[3] = 0x81;
  mad[4] = static_cast<std::uint8_t>(status >> 8);
  mad[5] = static_cast<std::uint8_t>(status);
  mad[8] = 0x7f;  // high TID bits: the kernel's
  const std::size_t offset = data_offset(query.mgmt_class);
  std::fill(mad + offset + 8, mad + kMadSize, fill);
  return packet;
}

void write(PcapRecorder& recorder, const Packet& packet, Direction direction, Time when) {
  recorder.record(packet.data(), kMadSize, direction, kLocalLid, when);
}

void write_bytes(const std::string& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary) << bytes;
}

std::string read_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

std::string replay_error(const std::string& path) {
  try {
    ReplaySource source(path);
  } catch (const MadError& e) {
    return e.what();
  }
  return "";
}

}  // namespace recording_test

using namespace recording_test;

TEST_CASE("A MAD's frame carries LRH, BTH and DETH from its address and reads back") {
  FrameAddress address;
  address.dlid = 0x1234;
  address.slid = 7;
  address.dest_qp = 1;
  address.src_qp = 1;
  address.qkey = 0x80010000;
  std::array<std::uint8_t, kMadSize> mad{};
  mad[1] = 0x04;
  mad[255] = 0xab;
  Frame frame;
  const std::size_t size = build_frame(address, mad, 1'500'000'000'250'000'000, frame);
  REQUIRE(size == kErfHeaderSize + 8 + 12 + 8 + 256 + 6);
  CHECK(frame[8] == kErfTypeInfiniband);
  CHECK(load_be16(&frame[10]) == size);
  // ERF time: little-endian 32.32 fixed point, the seconds in the high half.
  std::uint32_t seconds = 0;
  for (int i = 7; i >= 4; --i) seconds = seconds << 8 | frame[static_cast<std::size_t>(i)];
  CHECK(seconds == 1'500'000'000);
  CHECK(frame[3] == 0x40);  // a quarter second: 0x40000000
  const std::uint8_t* lrh = &frame[kErfHeaderSize];
  CHECK((lrh[0] >> 4) == 0);                                // VL0 for QP1
  CHECK((lrh[1] & 3) == 2);                                 // BTH follows
  CHECK(load_be16(lrh + 4) == (8 + 12 + 8 + 256 + 4) / 4);  // words, LRH to ICRC
  CHECK(lrh[kLrhSize] == 0x64);                             // UD SEND only

  const auto parsed = parse_frame({frame.data(), size});
  REQUIRE(parsed);
  CHECK(parsed->address.dlid == 0x1234);
  CHECK(parsed->address.slid == 7);
  CHECK(parsed->address.dest_qp == 1);
  CHECK(parsed->address.qkey == 0x80010000);
  REQUIRE(parsed->mad.size() == kMadSize);
  CHECK(parsed->mad[255] == 0xab);

  frame[8] = 2;  // an Ethernet record
  CHECK_FALSE(parse_frame({frame.data(), size}));
  frame[8] = kErfTypeInfiniband;
  CHECK_FALSE(parse_frame({frame.data(), size - 1}));  // lengths that disagree
}

TEST_CASE("A replay answers each query by what it asks, at the recording's time") {
  test::TempDir dir("recording");
  const std::string path = dir / "sweep.pcap";
  const MadQuery port3 = port_counters_query(5, 3);
  const MadQuery port4 = port_counters_query(5, 4);
  const MadQuery info = port_info_query(9, 2);
  const MadQuery silent = port_counters_query(6, 1);
  {
    PcapRecorder recorder(path);
    // Answers out of order, by transaction id; a timeout and its retry; a late duplicate.
    write(recorder, request(port3, 10), Direction::sent, at_ms(0));
    write(recorder, request(port4, 11), Direction::sent, at_ms(1));
    write(recorder, request(info, 12), Direction::sent, at_ms(2));
    write(recorder, request(silent, 13), Direction::sent, at_ms(3));
    write(recorder, response(port4, 11, 0x44), Direction::received, at_ms(5));
    write(recorder, response(info, 12, 0x99, 0x000c), Direction::received, at_ms(6));
    write(recorder, request(port3, 14), Direction::sent, at_ms(500));
    write(recorder, response(port3, 14, 0x33), Direction::received, at_ms(501));
    write(recorder, response(port3, 10, 0x30), Direction::received, at_ms(502));
    write(recorder, request(silent, 15), Direction::sent, at_ms(600));
    recorder.flush();
    CHECK(recorder.packets() == 10);
  }
  ReplaySource replay(path);
  CHECK(replay.requests() == 6);
  CHECK(replay.answers() == 3);

  const MadReply a = replay.answer(port3);
  CHECK(a.status == ReplyStatus::answered);
  CHECK(a.tries == 2);
  CHECK(a.data[8] == 0x33);
  CHECK(a.received == at_ms(501));
  const MadReply b = replay.answer(port4);
  CHECK(b.ok());
  CHECK(b.tries == 1);
  CHECK(b.data[8] == 0x44);
  const MadReply c = replay.answer(info);
  CHECK(c.status == ReplyStatus::answered);
  CHECK(c.mad_status == 0x000c);
  const MadReply d = replay.answer(silent);
  CHECK(d.status == ReplyStatus::timed_out);
  CHECK(d.tries == 2);
  // Asked again: the last answer stands.
  CHECK(replay.answer(port4).data[8] == 0x44);

  try {
    replay.answer(port_counters_query(5, 7));
    FAIL("a query the recording never asked was answered");
  } catch (const ReplayMissing& e) {
    CHECK(std::string(e.what()) ==
          "--replay " + path +
              ": the recording has no answer to PortCounters Get to LID 5, port 7");
  }
}

TEST_CASE("An engine on a recording answers a run, and records append run after run") {
  test::TempDir dir("recording-engine");
  const std::string path = dir / "runs.pcap";
  const MadQuery first = port_counters_query(5, 1);
  const MadQuery second = port_counters_extended_query(5, 1);
  {
    PcapRecorder recorder(path);
    write(recorder, request(first, 1), Direction::sent, at_ms(0));
    write(recorder, response(first, 1, 0x11), Direction::received, at_ms(1));
  }
  {
    PcapRecorder again(path);  // a second run appends
    write(again, request(second, 2), Direction::sent, at_ms(10));
    write(again, response(second, 2, 0x22), Direction::received, at_ms(11));
  }
  MadTap tap("", path);
  MadLink link("", 0, tap);  // no HCA port opened
  const std::vector<MadReply> replies = link.engine().run({first, second}, EngineOptions{});
  REQUIRE(replies.size() == 2);
  CHECK(replies[0].data[8] == 0x11);
  CHECK(replies[1].data[8] == 0x22);
  CHECK(replies[1].received == at_ms(11));
  CHECK(link.engine().stats().sent == 2);
  CHECK_THROWS_AS(MadTap(path, path), MadError);
}

TEST_CASE("A recording that is not one is refused with one line naming the fault") {
  test::TempDir dir("recording-bad");
  const std::string good = dir / "good.pcap";
  {
    PcapRecorder recorder(good);
    const MadQuery query = port_counters_query(5, 1);
    write(recorder, request(query, 1), Direction::sent, at_ms(0));
    write(recorder, response(query, 1, 0x11), Direction::received, at_ms(1));
  }
  const std::string bytes = read_bytes(good);
  REQUIRE(bytes.size() > 300);

  SECTION("not pcap at all") {
    write_bytes(dir / "text", "IB FABRIC OK - 144 ports polled\n");
    CHECK(replay_error(dir / "text") == "--replay " + (dir / "text") + ": unknown file format");
    write_bytes(dir / "empty", "");
    CHECK(replay_error(dir / "empty").find("--replay " + (dir / "empty") + ": ") == 0);
    CHECK(replay_error(dir / "missing").find("No such file") != std::string::npos);
  }
  SECTION("cut short") {
    write_bytes(dir / "cut", bytes.substr(0, bytes.size() - 100));
    CHECK(replay_error(dir / "cut") == "--replay " + (dir / "cut") +
                                           ": packet 2: truncated dump file; tried to read 306 "
                                           "captured bytes, only got 206");
    write_bytes(dir / "header", bytes.substr(0, 10));
    CHECK(replay_error(dir / "header").find("--replay " + (dir / "header") + ": ") == 0);
  }
  SECTION("another link type") {
    const ibpm::mad::PcapLibrary& pcap = ibpm::mad::pcap_library();
    pcap_t* ethernet =
        pcap.open_dead_with_tstamp_precision(DLT_EN10MB, 65535, PCAP_TSTAMP_PRECISION_MICRO);
    pcap_dumper_t* dumper = pcap.dump_open_append(ethernet, (dir / "ethernet").c_str());
    pcap.dump_close(dumper);
    pcap.close(ethernet);
    CHECK(replay_error(dir / "ethernet") ==
          "--replay " + (dir / "ethernet") +
              ": link type 1 (EN10MB), not ERF (197): not a --record recording");
    // Nor is one appended to.
    CHECK_THROWS_WITH(PcapRecorder(dir / "ethernet"),
                      Catch::Contains("--record " + (dir / "ethernet") + ": "));
  }
  SECTION("a corrupt packet") {
    std::string corrupt = bytes;
    corrupt[24 + 16 + 8] = 0x02;  // the first record's type: Ethernet, not InfiniBand
    write_bytes(dir / "corrupt", corrupt);
    CHECK(replay_error(dir / "corrupt") ==
          "--replay " + (dir / "corrupt") +
              ": packet 1 is not an InfiniBand MAD (ERF record, LRH, BTH, DETH)");
    std::string huge = bytes;
    huge[24 + 8] = '\xff';  // the first packet's captured length: past any snapshot length
    huge[24 + 9] = '\xff';
    write_bytes(dir / "huge", huge);
    CHECK(replay_error(dir / "huge").find("--replay " + (dir / "huge") + ": packet 1: ") == 0);
  }
}

TEST_CASE("A recording size (--record-max-size) is bytes with K, M, G or T") {
  CHECK(parse_record_size("1048576") == 1048576);
  CHECK(parse_record_size("1k") == 1024);
  CHECK(parse_record_size("500M") == 500ULL << 20);
  CHECK(parse_record_size("10MiB") == 10ULL << 20);
  CHECK(parse_record_size("10MB") == 10ULL << 20);
  CHECK(parse_record_size("2G") == 2ULL << 30);
  CHECK(parse_record_size("3T") == 3ULL << 40);
  for (const char* bad : {"", "M", "5X", "-1", "1.5G", "99999999999999999999", "20000000T"})
    CHECK_THROWS_WITH(parse_record_size(bad), "--record-max-size " + std::string(bad) +
                                                  ": not a size (bytes, or a number with K, M, "
                                                  "G or T)");
}

TEST_CASE(
    "A full recording is moved aside when a run starts, the oldest past --record-keep removed") {
  test::TempDir dir("recording-rotation");
  const std::string path = dir / "sweep.pcap";
  const MadQuery query = port_counters_query(5, 1);
  // One run: opens the tap as a command does, records a query and its answer.
  const auto run = [&](std::uint8_t fill, const RecordRotation& rotation) {
    MadTap tap(path, "", rotation);
    write(*tap.recorder(), request(query, fill), Direction::sent, at_ms(fill));
    write(*tap.recorder(), response(query, fill, fill), Direction::received, at_ms(fill + 1));
    tap.recorder()->flush();
  };
  const auto answer_in = [&](const std::string& file) {
    return static_cast<int>(ReplaySource(file).answer(query).data[8]);
  };
  const RecordRotation rotation{.max_size = 1000, .keep = 2, .max_age = {}};
  run(1, rotation);
  run(2, rotation);  // 2 runs: 24 + 4 * 322 bytes, under 1000 before this one
  CHECK_FALSE(std::filesystem::exists(path + ".1"));
  run(3, rotation);  // the file had 1312 bytes: moved aside
  REQUIRE(std::filesystem::exists(path + ".1"));
  CHECK(ReplaySource(path + ".1").answers() == 2);
  CHECK(ReplaySource(path).answers() == 1);
  CHECK(answer_in(path) == 3);
  run(4, rotation);
  run(5, rotation);  // (1 and 2) -> .2, (3 and 4) -> .1
  CHECK(answer_in(path + ".2") == 1);
  CHECK(answer_in(path + ".1") == 3);
  run(6, rotation);
  run(7, rotation);  // the oldest (1 and 2) removed
  CHECK(answer_in(path + ".2") == 3);
  CHECK(answer_in(path + ".1") == 5);
  CHECK(answer_in(path) == 7);
  CHECK_FALSE(std::filesystem::exists(path + ".3"));

  // Without a size nothing moves; with --record-keep 0 a full file is dropped.
  for (int i = 8; i < 12; ++i)
    run(static_cast<std::uint8_t>(i), {.max_size = 0, .keep = 2, .max_age = {}});
  CHECK(answer_in(path + ".1") == 5);
  CHECK(ReplaySource(path).answers() == 5);
  run(12, {.max_size = 1000, .keep = 0, .max_age = {}});
  CHECK(ReplaySource(path).answers() == 1);
  CHECK(answer_in(path + ".1") == 5);
}

TEST_CASE("A recording age (--record-max-age) is seconds with s, m, h or d") {
  using std::chrono::seconds;
  CHECK(parse_record_age("3600") == seconds(3600));
  CHECK(parse_record_age("90s") == seconds(90));
  CHECK(parse_record_age("30m") == seconds(1800));
  CHECK(parse_record_age("30M") == seconds(1800));
  CHECK(parse_record_age("6h") == seconds(6 * 3600));
  CHECK(parse_record_age("2d") == seconds(2 * 86400));
  CHECK(parse_record_age("0") == seconds(0));
  for (const char* bad :
       {"", "h", "1x", "-1h", "1.5h", "1hm", "1 h", "99999999999999999999", "40000d"})
    CHECK_THROWS_WITH(parse_record_age(bad),
                      "--record-max-age " + std::string(bad) +
                          ": not a duration (seconds, or a number with s, m, h or d)");
}

TEST_CASE("A recording is due to turn at its size or its first packet's age, whichever first") {
  using std::chrono::hours;
  using std::chrono::minutes;
  const Time now = at_ms(0);
  const RecordRotation by_size{.max_size = 1000, .keep = 5, .max_age = {}};
  const RecordRotation by_age{.max_size = 0, .keep = 5, .max_age = hours(1)};
  const RecordRotation both{.max_size = 1000, .keep = 5, .max_age = hours(1)};
  const RecordRotation neither{.max_size = 0, .keep = 5, .max_age = {}};
  // By size: the first packet's time does not count.
  CHECK_FALSE(rotation_due(999, now - hours(5), now, by_size));
  CHECK(rotation_due(1000, now, now, by_size));
  // By age: from the first packet, to the second; the size does not count.
  CHECK_FALSE(rotation_due(1 << 30, now - minutes(59), now, by_age));
  CHECK(rotation_due(24, now - hours(1), now, by_age));
  CHECK(rotation_due(24, now - hours(30), now, by_age));
  // No packet yet (a header only, or none libpcap can read): no age.
  CHECK_FALSE(rotation_due(24, std::nullopt, now, by_age));
  // A first packet after now (the clock set back) is not old.
  CHECK_FALSE(rotation_due(24, now + hours(3), now, by_age));
  // Both: whichever comes first.
  CHECK(rotation_due(5000, now - minutes(1), now, both));
  CHECK(rotation_due(100, now - hours(2), now, both));
  CHECK_FALSE(rotation_due(100, now - minutes(1), now, both));
  CHECK_FALSE(rotation_due(1 << 30, now - hours(100), now, neither));
}

TEST_CASE("A recording whose first packet is older than --record-max-age is moved aside") {
  using std::chrono::hours;
  using std::chrono::minutes;
  test::TempDir dir("recording-age");
  const std::string path = dir / "sweep.pcap";
  const MadQuery query = port_counters_query(5, 1);
  const Time now = std::chrono::system_clock::now();
  // One run at `when` (its packets' times, as the engine gives them).
  const auto run = [&](std::uint8_t fill, Time when, const RecordRotation& rotation) {
    MadTap tap(path, "", rotation);
    write(*tap.recorder(), request(query, fill), Direction::sent, when);
    write(*tap.recorder(), response(query, fill, fill), Direction::received,
          when + std::chrono::milliseconds(1));
    tap.recorder()->flush();
  };
  const auto answers_in = [&](const std::string& file) { return ReplaySource(file).answers(); };
  const auto answer_in = [&](const std::string& file) {
    return static_cast<int>(ReplaySource(file).answer(query).data[8]);
  };
  const RecordRotation hourly{.max_size = 0, .keep = 2, .max_age = hours(1)};
  // Runs of the last hour, the first 3 hours ago and 61 minutes ago in the file's own times.
  run(1, now - hours(3), hourly);
  run(2, now - minutes(61), hourly);  // the file's first packet is 3 hours old: moved aside
  CHECK(answer_in(path + ".1") == 1);
  CHECK(answers_in(path) == 1);
  run(3, now - minutes(30), hourly);  // 61 minutes: moved aside again
  CHECK(answer_in(path + ".2") == 1);
  CHECK(answer_in(path + ".1") == 2);
  run(4, now - minutes(10), hourly);
  run(5, now, hourly);  // 30 minutes: kept, the runs append
  CHECK(answers_in(path) == 3);
  CHECK(answer_in(path) == 3);
  CHECK(answer_in(path + ".1") == 2);

  // The file's modification time does not count, only its first packet's.
  const auto old = std::filesystem::file_time_type::clock::now() - hours(10);
  std::filesystem::last_write_time(path, old);
  run(6, now, hourly);
  CHECK(answers_in(path) == 4);

  // With a size too, whichever comes first: the size here (the packets are recent).
  run(7, now, {.max_size = 1000, .keep = 2, .max_age = hours(1)});
  CHECK(answers_in(path) == 1);
  CHECK(answers_in(path + ".1") == 4);
  CHECK(answer_in(path + ".2") == 2);  // the 3-hour-old one dropped
  CHECK_FALSE(std::filesystem::exists(path + ".3"));
}
