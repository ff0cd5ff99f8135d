// SPDX-License-Identifier: MIT
// Basic InfiniBand vocabulary: GUIDs, node types, port states, link width and speed,
// and the capacity of a link that follows from them.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace ibpm {

using Guid = std::uint64_t;
using Lid = std::uint16_t;
using PortNumber = std::uint8_t;

enum class NodeType : std::uint8_t { unknown = 0, ca = 1, sw = 2, router = 3 };

// Values as in PortInfo:PortState.
enum class PortState : std::uint8_t { unknown = 0, down = 1, init = 2, armed = 3, active = 4 };

enum class LinkWidth : std::uint8_t { x1, x2, x4, x8, x12 };

enum class LinkSpeed : std::uint8_t { sdr, ddr, qdr, fdr10, fdr, edr, hdr, ndr, xdr };

// A set of widths or speeds (PortInfo's "enabled" fields), one bit per enumerator.
template <typename Enum>
class EnumSet {
 public:
  constexpr EnumSet() = default;
  constexpr void insert(Enum e) { bits_ |= bit(e); }
  constexpr bool contains(Enum e) const { return (bits_ & bit(e)) != 0; }
  constexpr bool empty() const { return bits_ == 0; }
  // The largest member; only meaningful when !empty().
  constexpr Enum max() const {
    int top = 31 - __builtin_clz(bits_);
    return static_cast<Enum>(top);
  }
  constexpr std::uint32_t bits() const { return bits_; }
  friend constexpr bool operator==(EnumSet, EnumSet) = default;

 private:
  static constexpr std::uint32_t bit(Enum e) { return 1u << static_cast<unsigned>(e); }
  std::uint32_t bits_ = 0;
};
using WidthSet = EnumSet<LinkWidth>;
using SpeedSet = EnumSet<LinkSpeed>;

std::string_view to_string(NodeType type);
std::string_view to_string(PortState state);
std::string_view to_string(LinkWidth width);  // "4x"
std::string_view to_string(LinkSpeed speed);  // "HDR"

// Parses "4x" / "4X" and "HDR" / "hdr"; nullopt for anything else.
std::optional<LinkWidth> parse_link_width(std::string_view text);
std::optional<LinkSpeed> parse_link_speed(std::string_view text);

int lanes(LinkWidth width);

// Bits one lane signals per second on the wire (line rate, before encoding): 2.5 Gb/s for SDR.
std::uint64_t lane_signalling_rate_bps(LinkSpeed speed);

// Data rate of one lane in bit/s after line encoding: 8b/10b up to QDR, 64b/66b from FDR10 on.
std::uint64_t lane_data_rate_bps(LinkSpeed speed);

// Data capacity of a link in bit/s in one direction (e.g. 4x QDR = 32 Gb/s, 4x HDR = 200 Gb/s).
std::uint64_t link_capacity_bps(LinkWidth width, LinkSpeed speed);

// Bits a link signals per second in one direction, all lanes (4x HDR = 206.25 Gb/s): what a bit
// error ratio divides by.
std::uint64_t link_signalling_bps(LinkWidth width, LinkSpeed speed);

// "0x0002c90300a1b2c3": GUIDs are always printed with 0x and 16 hex digits.
std::string format_guid(Guid guid);
// format_guid's text appended to `out` (no string of its own: a sweep names every port's file).
void append_guid(std::string& out, Guid guid);

// Accepts "0x..." or bare hex (1-16 digits); nullopt otherwise.
std::optional<Guid> parse_guid(std::string_view text);

}  // namespace ibpm
