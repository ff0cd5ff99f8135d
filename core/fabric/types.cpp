// SPDX-License-Identifier: MIT

#include "fabric/types.hpp"

#include <array>
#include <cctype>
#include <charconv>

namespace ibpm {
namespace {

constexpr std::array<std::string_view, 5> kWidthNames{"1x", "2x", "4x", "8x", "12x"};
constexpr std::array<int, 5> kLanes{1, 2, 4, 8, 12};
constexpr std::array<std::string_view, 9> kSpeedNames{"SDR", "DDR", "QDR", "FDR10", "FDR",
                                                      "EDR", "HDR", "NDR", "XDR"};

bool iequals(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(a[i])) !=
        std::tolower(static_cast<unsigned char>(b[i])))
      return false;
  }
  return true;
}

}  // namespace

std::string_view to_string(NodeType type) {
  switch (type) {
    case NodeType::ca:
      return "CA";
    case NodeType::sw:
      return "Switch";
    case NodeType::router:
      return "Router";
    case NodeType::unknown:
      break;
  }
  return "Unknown";
}

std::string_view to_string(PortState state) {
  switch (state) {
    case PortState::down:
      return "Down";
    case PortState::init:
      return "Initialize";
    case PortState::armed:
      return "Armed";
    case PortState::active:
      return "Active";
    case PortState::unknown:
      break;
  }
  return "Unknown";
}

std::string_view to_string(LinkWidth width) { return kWidthNames.at(static_cast<int>(width)); }
std::string_view to_string(LinkSpeed speed) { return kSpeedNames.at(static_cast<int>(speed)); }

std::optional<LinkWidth> parse_link_width(std::string_view text) {
  for (std::size_t i = 0; i < kWidthNames.size(); ++i)
    if (iequals(text, kWidthNames[i])) return static_cast<LinkWidth>(i);
  return std::nullopt;
}

std::optional<LinkSpeed> parse_link_speed(std::string_view text) {
  for (std::size_t i = 0; i < kSpeedNames.size(); ++i)
    if (iequals(text, kSpeedNames[i])) return static_cast<LinkSpeed>(i);
  return std::nullopt;
}

int lanes(LinkWidth width) { return kLanes.at(static_cast<int>(width)); }

std::uint64_t lane_signalling_rate_bps(LinkSpeed speed) {
  switch (speed) {
    case LinkSpeed::sdr:
      return 2'500'000'000ull;
    case LinkSpeed::ddr:
      return 5'000'000'000ull;
    case LinkSpeed::qdr:
      return 10'000'000'000ull;
    case LinkSpeed::fdr10:
      return 10'312'500'000ull;
    case LinkSpeed::fdr:
      return 14'062'500'000ull;
    case LinkSpeed::edr:
      return 25'781'250'000ull;
    case LinkSpeed::hdr:
      return 51'562'500'000ull;
    case LinkSpeed::ndr:
      return 103'125'000'000ull;
    case LinkSpeed::xdr:
      return 206'250'000'000ull;
  }
  return 0;
}

std::uint64_t lane_data_rate_bps(LinkSpeed speed) {
  // The signalling rate times the encoding's efficiency: 8b/10b up to QDR, 64b/66b after.
  const std::uint64_t signalling = lane_signalling_rate_bps(speed);
  return speed <= LinkSpeed::qdr ? signalling * 8 / 10 : signalling * 64 / 66;
}

std::uint64_t link_capacity_bps(LinkWidth width, LinkSpeed speed) {
  return static_cast<std::uint64_t>(lanes(width)) * lane_data_rate_bps(speed);
}

std::uint64_t link_signalling_bps(LinkWidth width, LinkSpeed speed) {
  return static_cast<std::uint64_t>(lanes(width)) * lane_signalling_rate_bps(speed);
}

void append_guid(std::string& out, Guid guid) {
  // "0x" and 16 hex digits, written in place.
  static constexpr char kDigits[] = "0123456789abcdef";
  const std::size_t start = out.size();
  out.append(18, '0');
  out[start + 1] = 'x';
  for (std::size_t i = start + 17; guid != 0; --i, guid >>= 4) out[i] = kDigits[guid & 0xf];
}

std::string format_guid(Guid guid) {
  std::string text;
  append_guid(text, guid);
  return text;
}

std::optional<Guid> parse_guid(std::string_view text) {
  if (text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X'))
    text.remove_prefix(2);
  if (text.empty() || text.size() > 16) return std::nullopt;
  Guid value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value, 16);
  if (ec != std::errc{} || end != text.data() + text.size()) return std::nullopt;
  return value;
}

}  // namespace ibpm
