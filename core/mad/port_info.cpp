// SPDX-License-Identifier: MIT

#include "mad/port_info.hpp"

#include <infiniband/mad.h>

namespace ibpm::mad {
namespace {

constexpr std::uint32_t kCapHasExtendedSpeeds = 1u << 14;  // PortInfo:CapabilityMask bit 14

// PortInfo width bits: 1 = 1x, 2 = 4x, 4 = 8x, 8 = 12x, 16 = 2x.
struct WidthBit {
  unsigned bit;
  LinkWidth width;
};
constexpr WidthBit kWidthBits[] = {{1, LinkWidth::x1},
                                   {2, LinkWidth::x4},
                                   {4, LinkWidth::x8},
                                   {8, LinkWidth::x12},
                                   {16, LinkWidth::x2}};

struct SpeedBit {
  unsigned bit;
  LinkSpeed speed;
};
constexpr SpeedBit kSpeedBits[] = {{1, LinkSpeed::sdr}, {2, LinkSpeed::ddr}, {4, LinkSpeed::qdr}};
constexpr SpeedBit kExtSpeedBits[] = {
    {1, LinkSpeed::fdr}, {2, LinkSpeed::edr}, {4, LinkSpeed::hdr}, {8, LinkSpeed::ndr}};

SpeedSet decode_speeds(unsigned mask, const SpeedBit* begin, const SpeedBit* end) {
  SpeedSet set;
  for (const SpeedBit* e = begin; e != end; ++e)
    if (mask & e->bit) set.insert(e->speed);
  return set;
}

}  // namespace

WidthSet decode_width_mask(unsigned mask) {
  WidthSet set;
  for (const WidthBit& e : kWidthBits)
    if (mask & e.bit) set.insert(e.width);
  return set;
}

void apply_port_info(Port& port, const std::uint8_t* info, const std::uint8_t* ext_info,
                     const std::uint8_t* cap_info) {
  auto* pinfo = const_cast<std::uint8_t*>(info);  // libibmad's getters take void*
  unsigned state = mad_get_field(pinfo, 0, IB_PORT_STATE_F);
  port.state = state <= 4 ? static_cast<PortState>(state) : PortState::unknown;

  WidthSet active_width = decode_width_mask(mad_get_field(pinfo, 0, IB_PORT_LINK_WIDTH_ACTIVE_F));
  port.widths_enabled = decode_width_mask(mad_get_field(pinfo, 0, IB_PORT_LINK_WIDTH_ENABLED_F));

  const bool ext_speeds = mad_get_field(const_cast<std::uint8_t*>(cap_info), 0, IB_PORT_CAPMASK_F) &
                          kCapHasExtendedSpeeds;
  SpeedSet active = decode_speeds(mad_get_field(pinfo, 0, IB_PORT_LINK_SPEED_ACTIVE_F),
                                  std::begin(kSpeedBits), std::end(kSpeedBits));
  SpeedSet enabled = decode_speeds(mad_get_field(pinfo, 0, IB_PORT_LINK_SPEED_ENABLED_F),
                                   std::begin(kSpeedBits), std::end(kSpeedBits));
  if (ext_speeds) {
    SpeedSet ext_active = decode_speeds(mad_get_field(pinfo, 0, IB_PORT_LINK_SPEED_EXT_ACTIVE_F),
                                        std::begin(kExtSpeedBits), std::end(kExtSpeedBits));
    SpeedSet ext_enabled = decode_speeds(mad_get_field(pinfo, 0, IB_PORT_LINK_SPEED_EXT_ENABLED_F),
                                         std::begin(kExtSpeedBits), std::end(kExtSpeedBits));
    if (!ext_active.empty()) active = ext_active;
    for (LinkSpeed s : {LinkSpeed::fdr, LinkSpeed::edr, LinkSpeed::hdr, LinkSpeed::ndr})
      if (ext_enabled.contains(s)) enabled.insert(s);
  }
  // FDR10 is a Mellanox extension reported in the vendor's extended PortInfo.
  if (ext_info) {
    auto* pext = const_cast<std::uint8_t*>(ext_info);
    if (mad_get_field(pext, 0, IB_MLNX_EXT_PORT_LINK_SPEED_ACTIVE_F) & 1) {
      active = SpeedSet{};
      active.insert(LinkSpeed::fdr10);
    }
    if (mad_get_field(pext, 0, IB_MLNX_EXT_PORT_LINK_SPEED_ENABLED_F) & 1)
      enabled.insert(LinkSpeed::fdr10);
  }
  port.speeds_enabled = enabled;
  if (port.state >= PortState::init || port.state == PortState::unknown) {
    if (!active_width.empty()) port.width = active_width.max();
    if (!active.empty()) port.speed = active.max();
  }
}

}  // namespace ibpm::mad
