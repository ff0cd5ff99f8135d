// SPDX-License-Identifier: MIT
// The OpenSM plugin's trap record: the layout of core/events/trap_record.hpp byte for byte, and
// every datagram that is not such a record refused.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdint>
#include <vector>

#include "events/trap_record.hpp"

using ibpm::events::decode_trap_record;
using ibpm::events::encode_trap_record;
using ibpm::events::kTrapRecordSize;
using ibpm::events::TrapRecord;

namespace {

// A trap 128 from switch LID 0x0102, written out by hand as the header documents it.
std::vector<std::uint8_t> trap_128_bytes() {
  std::vector<std::uint8_t> b(kTrapRecordSize, 0);
  const char magic[] = "IBPMTRAP";
  for (int i = 0; i < 8; ++i) b[i] = static_cast<std::uint8_t>(magic[i]);
  b[9] = 1;                                  // version
  b[11] = 112;                               // size
  b[12] = 1;                                 // generic
  b[13] = 4;                                 // informational
  b[14] = 0x00, b[15] = 0x80;                // trap 128
  b[17] = 0x00, b[18] = 0x00, b[19] = 0x02;  // producer: switch
  b[20] = 0x01, b[21] = 0x02;                // issuer LID
  b[22] = 0x80, b[23] = 0x03;                // toggle, count 3
  for (int i = 0; i < 8; ++i) b[24 + i] = static_cast<std::uint8_t>(0x11 * (i + 1));
  b[35] = 7;                   // sequence
  b[39] = 2;                   // dropped
  b[40] = 0xfe, b[41] = 0x80;  // issuer GID fe80::...
  b[55] = 0x42;
  b[56] = 0x01, b[57] = 0x02;  // details: the switch LID
  b[109] = 0xaa;               // last details byte
  return b;
}

}  // namespace

TEST_CASE("a trap record decodes field by field as documented") {
  const auto bytes = trap_128_bytes();
  const auto record = decode_trap_record(bytes);
  REQUIRE(record);
  CHECK(record->generic);
  CHECK(record->type == 4);
  CHECK(record->trap_number == 128);
  CHECK(record->producer_type == 2);
  CHECK(record->issuer_lid == 0x0102);
  CHECK(record->toggle_count == 0x8003);
  CHECK(record->sent_ns == 0x1122334455667788ull);
  CHECK(record->sequence == 7);
  CHECK(record->dropped == 2);
  CHECK(record->issuer_gid[0] == 0xfe);
  CHECK(record->issuer_gid[1] == 0x80);
  CHECK(record->issuer_gid[15] == 0x42);
  CHECK(record->details_u16(0) == 0x0102);
  CHECK(record->details[53] == 0xaa);
  CHECK_THROWS_AS(record->details_u16(53), std::out_of_range);

  // encode writes the same bytes back.
  const auto again = encode_trap_record(*record);
  CHECK(std::vector<std::uint8_t>(again.begin(), again.end()) == bytes);
}

TEST_CASE("a vendor notice keeps its device and vendor IDs") {
  TrapRecord vendor;
  vendor.generic = false;
  vendor.type = 1;
  vendor.trap_number = 0x1234;      // device ID
  vendor.producer_type = 0x02c9ab;  // vendor ID, 24 bits
  vendor.issuer_lid = 9;
  const auto bytes = encode_trap_record(vendor);
  CHECK(bytes[12] == 0);
  const auto back = decode_trap_record(bytes);
  REQUIRE(back);
  CHECK(*back == vendor);
}

TEST_CASE("a datagram with another magic is not a trap record") {
  auto bytes = trap_128_bytes();
  bytes[0] = 'X';
  CHECK_FALSE(decode_trap_record(bytes));
  bytes = trap_128_bytes();
  bytes[7] = 'p';
  CHECK_FALSE(decode_trap_record(bytes));
}

TEST_CASE("a trap record of another version or size field is refused") {
  auto bytes = trap_128_bytes();
  bytes[9] = 2;
  CHECK_FALSE(decode_trap_record(bytes));
  bytes = trap_128_bytes();
  bytes[8] = 1;  // version 257
  CHECK_FALSE(decode_trap_record(bytes));
  bytes = trap_128_bytes();
  bytes[11] = 110;
  CHECK_FALSE(decode_trap_record(bytes));
}

TEST_CASE("a truncated trap record is refused") {
  const auto bytes = trap_128_bytes();
  for (std::size_t size : {std::size_t{0}, std::size_t{8}, std::size_t{56}, kTrapRecordSize - 1})
    CHECK_FALSE(decode_trap_record(std::span(bytes.data(), size)));
}

TEST_CASE("a trap record with bytes after it is refused") {
  auto bytes = trap_128_bytes();
  bytes.push_back(0);
  CHECK_FALSE(decode_trap_record(bytes));
  bytes.resize(4096, 0);
  CHECK_FALSE(decode_trap_record(bytes));
}

TEST_CASE("a trap record with flag or reserved bits set is refused") {
  auto bytes = trap_128_bytes();
  bytes[12] = 5;  // bit 2: no such flag
  CHECK_FALSE(decode_trap_record(bytes));
  bytes = trap_128_bytes();
  bytes[13] = 0x84;
  CHECK_FALSE(decode_trap_record(bytes));
  bytes = trap_128_bytes();
  bytes[16] = 1;
  CHECK_FALSE(decode_trap_record(bytes));
  bytes = trap_128_bytes();
  bytes[111] = 1;
  CHECK_FALSE(decode_trap_record(bytes));
}

TEST_CASE("a heartbeat record is no trap: flag bit 1, the interval in the details") {
  // As the plugin's send_heartbeat lays it out, byte by byte.
  std::vector<std::uint8_t> bytes(112, 0);
  const char magic[] = "IBPMTRAP";
  std::copy(magic, magic + 8, bytes.begin());
  bytes[9] = 1;     // version
  bytes[11] = 112;  // size
  bytes[12] = 2;    // heartbeat, not generic
  bytes[35] = 7;    // sequence: traps so far
  bytes[39] = 1;    // dropped so far
  bytes[57] = 30;   // every 30 s
  const auto record = decode_trap_record(bytes);
  REQUIRE(record);
  CHECK(record->heartbeat);
  CHECK_FALSE(record->generic);
  CHECK(record->trap_number == 0);
  CHECK(record->sequence == 7);
  CHECK(record->dropped == 1);
  CHECK(record->details_u16(0) == 30);
  const auto encoded = encode_trap_record(*record);
  CHECK(std::equal(encoded.begin(), encoded.end(), bytes.begin(), bytes.end()));
}
