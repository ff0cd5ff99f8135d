// SPDX-License-Identifier: MIT
// The byte writer and reader: what is written reads back the same, in little-endian order
// whatever the machine; a read past the end or a length beyond the bytes throws BytesTooShort,
// and nothing past the end is ever looked at.
#include <catch2/catch.hpp>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "base/byte_stream.hpp"

using ibpm::base::ByteReader;
using ibpm::base::BytesTooShort;
using ibpm::base::ByteWriter;

TEST_CASE("bytes written read back the same, little-endian") {
  std::string bytes;
  ByteWriter out(bytes);
  out.put<std::uint8_t>(0xab);
  out.put<std::uint16_t>(0x1234);
  out.put<std::uint32_t>(0xdeadbeef);
  out.put<std::uint64_t>(0x0102030405060708ULL);
  out.put_uint(0x0a0b0c, 3);
  out.put_double(-1.5);
  out.put_double(std::numeric_limits<double>::infinity());
  out.put_text("leaf \"01\"\n");
  out.put_text("");
  out.put_bytes("IBPM");
  CHECK(bytes.substr(0, 15) ==
        std::string("\xab\x34\x12\xef\xbe\xad\xde\x08\x07\x06\x05\x04\x03\x02\x01", 15));
  CHECK(bytes.substr(15, 3) == "\x0c\x0b\x0a");
  CHECK(bytes.size() == 15 + 3 + 8 + 8 + 4 + 10 + 4 + 4);

  ByteReader in(bytes);
  CHECK(in.get<std::uint8_t>() == 0xab);
  CHECK(in.get<std::uint16_t>() == 0x1234);
  CHECK(in.get<std::uint32_t>() == 0xdeadbeef);
  CHECK(in.get_uint(8) == 0x0102030405060708ULL);
  CHECK(in.get_uint(3) == 0x0a0b0c);
  CHECK(in.get_double() == -1.5);
  CHECK(std::isinf(in.get_double()));
  CHECK(in.get_text() == "leaf \"01\"\n");
  CHECK(in.remaining() == 8);
  CHECK(in.get_text().empty());
  CHECK(in.get_bytes(4) == "IBPM");
  CHECK(in.done());
}

TEST_CASE("a read past the end throws and looks at nothing past it") {
  // A heap block of exactly 5 bytes: under AddressSanitizer (CI) a read past it stops the test.
  const std::vector<char> block{1, 2, 3, 4, 5};
  const std::string_view bytes(block.data(), block.size());
  SECTION("a number wider than what is left") {
    ByteReader in(bytes);
    CHECK(in.get<std::uint32_t>() == 0x04030201);
    CHECK_THROWS_AS(in.get<std::uint16_t>(), BytesTooShort);
    CHECK(in.get<std::uint8_t>() == 5);  // the failed read took nothing
    CHECK_THROWS_AS(in.get<std::uint8_t>(), BytesTooShort);
    CHECK_THROWS_AS(in.get_uint(1), BytesTooShort);
    CHECK(in.done());
  }
  SECTION("a double or a sized number from too few bytes") {
    ByteReader in(bytes);
    CHECK_THROWS_AS(in.get_double(), BytesTooShort);
    CHECK_THROWS_AS(in.get<std::uint64_t>(), BytesTooShort);
    CHECK_THROWS_AS(in.get_uint(6), BytesTooShort);
    CHECK(in.get_uint(5) == 0x0504030201);
  }
  SECTION("nothing at all") {
    ByteReader in(std::string_view{});
    CHECK(in.done());
    CHECK_THROWS_AS(in.get<std::uint8_t>(), BytesTooShort);
    CHECK(in.get_bytes(0).empty());
    CHECK_THROWS_AS(in.get_bytes(1), BytesTooShort);
  }
  SECTION("sizes a number cannot have") {
    ByteReader in(bytes);
    CHECK_THROWS_AS(in.get_uint(0), std::invalid_argument);
    CHECK_THROWS_AS(in.get_uint(9), std::invalid_argument);
    CHECK(in.remaining() == 5);
  }
}

TEST_CASE("a length beyond the bytes throws, however large") {
  for (const std::uint32_t length : {2u, 3u, 0x7fffffffu, 0xffffffffu}) {
    std::string bytes;
    ByteWriter out(bytes);
    out.put(length);
    out.put_bytes("ab");  // two bytes where `length` are announced
    ByteReader in(bytes);
    if (length == 2) {
      CHECK(in.get_text() == "ab");
      continue;
    }
    CHECK_THROWS_AS(in.get_text(), BytesTooShort);
    ByteReader again(bytes);
    again.get<std::uint32_t>();
    CHECK_THROWS_AS(again.get_bytes(length), BytesTooShort);
    CHECK_THROWS_AS(again.get_bytes(std::numeric_limits<std::size_t>::max()), BytesTooShort);
    CHECK(again.get_bytes(2) == "ab");
  }
}

TEST_CASE("every cut of a written sequence throws rather than read a partial value") {
  std::string bytes;
  ByteWriter out(bytes);
  out.put<std::uint16_t>(7);
  out.put_text("spine01");
  out.put_double(0.25);
  for (std::size_t size = 0; size < bytes.size(); ++size) {
    ByteReader in(std::string_view(bytes).substr(0, size));
    const auto read_all = [&] {
      in.get<std::uint16_t>();
      in.get_text();
      in.get_double();
    };
    CHECK_THROWS_AS(read_all(), BytesTooShort);
  }
}

TEST_CASE("the writer refuses a size a number cannot have") {
  std::string bytes;
  ByteWriter out(bytes);
  CHECK_THROWS_AS(out.put_uint(1, 0), std::invalid_argument);
  CHECK_THROWS_AS(out.put_uint(1, 9), std::invalid_argument);
  CHECK(bytes.empty());
  out.put_uint(0x1ff, 1);  // only the low byte
  CHECK(bytes == "\xff");
}
