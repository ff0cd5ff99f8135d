// SPDX-License-Identifier: MIT
// A MAD as it travels on an InfiniBand link: local route header (LRH), base transport header
// (BTH, an unreliable-datagram SEND), datagram extended transport header (DETH), the 256-byte
// MAD, then the invariant and variant CRCs. The pcap recorder writes these frames, each behind
// an ERF record header of type InfiniBand (pcap link type DLT_ERF, as ibdump writes them: Debian's
// tshark decodes them down to the MAD's attributes, while it refuses the InfiniBand link type
// 247), and the replay reads them back. Nothing here allocates: a frame is built in place.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>

namespace ibpm::mad {

// The pcap link type of the recordings: ERF records (Endace's Extensible Record Format).
constexpr int kLinktypeErf = 197;
// The ERF record type of an InfiniBand packet that starts with its LRH.
constexpr std::uint8_t kErfTypeInfiniband = 21;
constexpr std::size_t kErfHeaderSize = 16;

// Who sent a frame to whom, as the umad address and our port's LID give it.
struct FrameAddress {
  unsigned dlid = 0;
  unsigned slid = 0;
  std::uint32_t dest_qp = 0;  // 0 for SMPs, 1 for the other management classes
  std::uint32_t src_qp = 0;
  std::uint32_t qkey = 0;  // 0x80010000 on QP1, 0 on QP0
  std::uint8_t sl = 0;
};

// The MAD's common header (base version to attribute modifier).
constexpr std::size_t kMadHeaderSize = 24;

// Big-endian fields, as every header on the wire holds them.
inline unsigned load_be16(const std::uint8_t* at) { return (unsigned{at[0]} << 8) | at[1]; }
inline std::uint32_t load_be32(const std::uint8_t* at) {
  return (std::uint32_t{load_be16(at)} << 16) | load_be16(at + 2);
}
inline std::uint64_t load_be64(const std::uint8_t* at) {
  return (std::uint64_t{load_be32(at)} << 32) | load_be32(at + 4);
}

constexpr std::size_t kLrhSize = 8;
constexpr std::size_t kBthSize = 12;
constexpr std::size_t kDethSize = 8;
constexpr std::size_t kFrameHeaderSize = kLrhSize + kBthSize + kDethSize;
constexpr std::size_t kFrameTrailerSize = 6;  // ICRC (4) and VCRC (2)
constexpr std::size_t kMaxFrameSize = kErfHeaderSize + kFrameHeaderSize + 256 + kFrameTrailerSize;
using Frame = std::array<std::uint8_t, kMaxFrameSize>;

// Builds the ERF record of `mad` (at most 256 bytes, normally exactly 256) into `frame`, stamped
// with `when` (nanoseconds since the epoch); returns its length.
std::size_t build_frame(const FrameAddress& address, std::span<const std::uint8_t> mad,
                        std::int64_t when, Frame& frame);

// A frame read back: its address and its MAD (a view into the bytes given).
struct ParsedFrame {
  FrameAddress address;
  std::span<const std::uint8_t> mad;
};

// The record's address and MAD, or nothing when the bytes are not an ERF record of type
// InfiniBand holding an LRH/BTH/DETH frame of a MAD (too short, another record type, next header
// or opcode, a MAD shorter than its 24-byte common header, lengths that disagree).
std::optional<ParsedFrame> parse_frame(std::span<const std::uint8_t> bytes);

}  // namespace ibpm::mad
