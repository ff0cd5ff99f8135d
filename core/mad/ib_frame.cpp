// SPDX-License-Identifier: MIT
// Building and reading the LRH/BTH/DETH frame of a MAD (IBA volume 1, chapters 7 and 9).

#include "mad/ib_frame.hpp"

#include <algorithm>

namespace ibpm::mad {

namespace {

constexpr std::uint8_t kLnhIbaLocal = 2;  // LRH next header: BTH, no GRH
constexpr std::uint8_t kOpcodeUdSendOnly = 0x64;
constexpr std::uint16_t kDefaultPkey = 0xffff;

void put16(std::uint8_t* at, unsigned value) {
  at[0] = static_cast<std::uint8_t>(value >> 8);
  at[1] = static_cast<std::uint8_t>(value);
}
void put24(std::uint8_t* at, std::uint32_t value) {
  at[0] = static_cast<std::uint8_t>(value >> 16);
  put16(at + 1, value & 0xffff);
}
void put32(std::uint8_t* at, std::uint32_t value) {
  put16(at, value >> 16);
  put16(at + 2, value & 0xffff);
}
std::uint32_t load_be24(const std::uint8_t* at) {
  return (std::uint32_t{at[0]} << 16) | load_be16(at + 1);
}

// Byte-at-a-time tables of the two reflected CRCs (built at compile time): a sweep records
// thousands of 300-byte frames, and bit by bit their CRCs cost more than the sweep's own work.
template <typename Value, Value kPolynomial>
constexpr std::array<Value, 256> crc_table() {
  std::array<Value, 256> table{};
  for (unsigned byte = 0; byte < 256; ++byte) {
    Value crc = static_cast<Value>(byte);
    for (int bit = 0; bit < 8; ++bit)
      crc = static_cast<Value>((crc >> 1) ^ ((crc & 1u) ? kPolynomial : Value{0}));
    table[byte] = crc;
  }
  return table;
}
// CRC-32 as the ICRC uses it (the Ethernet polynomial, reflected).
constexpr auto kCrc32Table = crc_table<std::uint32_t, 0xedb88320u>();
// CRC-16 of the VCRC (polynomial 0x100B, reflected).
constexpr auto kCrc16Table = crc_table<std::uint16_t, 0xd008u>();

std::uint32_t crc32_update(std::uint32_t crc, const std::uint8_t* data, std::size_t size) {
  for (std::size_t i = 0; i < size; ++i) crc = kCrc32Table[(crc ^ data[i]) & 0xffu] ^ (crc >> 8);
  return crc;
}

// The ICRC covers the packet with its variant fields (the LRH's VL, the BTH's resv8a) as ones.
std::uint32_t icrc(const std::uint8_t* frame, std::size_t size) {
  std::array<std::uint8_t, kLrhSize + kBthSize> headers{};
  std::copy_n(frame, headers.size(), headers.begin());
  headers[0] |= 0xf0;
  headers[kLrhSize + 4] = 0xff;
  std::uint32_t crc = crc32_update(0xffffffffu, headers.data(), headers.size());
  crc = crc32_update(crc, frame + headers.size(), size - headers.size());
  return ~crc;
}

// The VCRC: CRC-16 over the whole packet, ICRC included.
std::uint16_t vcrc(const std::uint8_t* frame, std::size_t size) {
  std::uint16_t crc = 0xffff;
  for (std::size_t i = 0; i < size; ++i)
    crc = static_cast<std::uint16_t>(kCrc16Table[(crc ^ frame[i]) & 0xffu] ^ (crc >> 8));
  return static_cast<std::uint16_t>(~crc);
}

}  // namespace

std::size_t build_frame(const FrameAddress& address, std::span<const std::uint8_t> mad,
                        std::int64_t when, Frame& frame) {
  const std::size_t mad_size = std::min<std::size_t>(mad.size(), 256);
  const std::size_t size = kFrameHeaderSize + mad_size + kFrameTrailerSize;
  std::uint8_t* erf = frame.data();
  // ERF: a 32.32 fixed-point time in seconds, little-endian; then type, flags (varying length),
  // record length, loss counter and wire length, big-endian.
  const auto seconds = static_cast<std::uint64_t>(when / 1000000000);
  const auto fraction =
      (static_cast<std::uint64_t>(when % 1000000000) << 32) / std::uint64_t{1000000000};
  const std::uint64_t stamp = seconds << 32 | fraction;
  for (int i = 0; i < 8; ++i) erf[i] = static_cast<std::uint8_t>(stamp >> (8 * i));
  erf[8] = kErfTypeInfiniband;
  erf[9] = 0x04;
  put16(erf + 10, static_cast<unsigned>(kErfHeaderSize + size));
  put16(erf + 12, 0);
  put16(erf + 14, static_cast<unsigned>(size));
  std::uint8_t* lrh = erf + kErfHeaderSize;
  // SMPs travel on VL15, everything else on VL0 here.
  const std::uint8_t vl = address.dest_qp == 0 ? 15 : 0;
  lrh[0] = static_cast<std::uint8_t>(vl << 4);  // LVer 0
  lrh[1] = static_cast<std::uint8_t>((address.sl & 0x0f) << 4 | kLnhIbaLocal);
  put16(lrh + 2, address.dlid);
  // Packet length in 4-byte words, LRH through ICRC (the VCRC is not counted).
  put16(lrh + 4, static_cast<unsigned>((size - 2) / 4) & 0x7ff);
  put16(lrh + 6, address.slid);

  std::uint8_t* bth = lrh + kLrhSize;
  bth[0] = kOpcodeUdSendOnly;
  bth[1] = static_cast<std::uint8_t>((4 - mad_size % 4) % 4 << 4);  // pad count, TVer 0
  put16(bth + 2, kDefaultPkey);
  bth[4] = 0;
  put24(bth + 5, address.dest_qp);
  bth[8] = 0;
  put24(bth + 9, 0);  // PSN: unused by UD management traffic

  std::uint8_t* deth = bth + kBthSize;
  put32(deth, address.qkey);
  deth[4] = 0;
  put24(deth + 5, address.src_qp);

  std::copy_n(mad.data(), mad_size, deth + kDethSize);
  std::uint8_t* trailer = deth + kDethSize + mad_size;
  const std::uint32_t crc = icrc(lrh, size - kFrameTrailerSize);
  // The ICRC goes out least significant byte first, as the CRC is computed.
  for (int i = 0; i < 4; ++i) trailer[i] = static_cast<std::uint8_t>(crc >> (8 * i));
  put16(trailer + 4, vcrc(lrh, size - 2));
  return kErfHeaderSize + size;
}

std::optional<ParsedFrame> parse_frame(std::span<const std::uint8_t> record) {
  if (record.size() < kErfHeaderSize + kFrameHeaderSize + kMadHeaderSize + kFrameTrailerSize)
    return std::nullopt;
  // An InfiniBand record without extension headers, whose lengths are the bytes there are.
  if (record[8] != kErfTypeInfiniband) return std::nullopt;
  if (load_be16(record.data() + 10) != record.size()) return std::nullopt;
  const std::span<const std::uint8_t> bytes = record.subspan(kErfHeaderSize);
  if (load_be16(record.data() + 14) != bytes.size()) return std::nullopt;
  const std::uint8_t* lrh = bytes.data();
  if ((lrh[1] & 0x03) != kLnhIbaLocal) return std::nullopt;
  const std::uint8_t* bth = lrh + kLrhSize;
  if (bth[0] != kOpcodeUdSendOnly) return std::nullopt;
  const std::uint8_t* deth = bth + kBthSize;
  ParsedFrame parsed;
  parsed.address.sl = static_cast<std::uint8_t>(lrh[1] >> 4);
  parsed.address.dlid = load_be16(lrh + 2);
  parsed.address.slid = load_be16(lrh + 6);
  parsed.address.dest_qp = load_be24(bth + 5);
  parsed.address.qkey = load_be32(deth);
  parsed.address.src_qp = load_be24(deth + 5);
  const std::size_t mad_size = bytes.size() - kFrameHeaderSize - kFrameTrailerSize;
  parsed.mad = bytes.subspan(kFrameHeaderSize, std::min<std::size_t>(mad_size, 256));
  return parsed;
}

}  // namespace ibpm::mad
