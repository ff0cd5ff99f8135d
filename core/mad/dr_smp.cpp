// SPDX-License-Identifier: MIT

#include "mad/dr_smp.hpp"

#include <algorithm>

#include "mad/ib_frame.hpp"
#include "mad/mad_names.hpp"

namespace ibpm::mad {

namespace {

// Where the fields of a directed-route SMP lie (IBA volume 1, 14.2.1.2).
constexpr std::size_t kHopCount = 7;
constexpr std::size_t kDrSlid = 32;
constexpr std::size_t kDrDlid = 34;
constexpr std::size_t kData = 64;
constexpr std::size_t kInitialPath = 128;
constexpr std::uint16_t kPortInfo = 0x0015;

}  // namespace

bool is_directed_route(const std::uint8_t* mad) { return mad[1] == kDirectedRouteClass; }

bool routed_by_path_alone(const std::uint8_t* mad) {
  return load_be16(mad + kDrSlid) == kPermissiveLid && load_be16(mad + kDrDlid) == kPermissiveLid;
}

DrSmpKey dr_smp_key(const std::uint8_t* mad) {
  DrSmpKey key;
  key.method = mad[3];
  key.attribute = static_cast<std::uint16_t>(load_be16(mad + 16));
  key.modifier = load_be32(mad + 20);
  key.dr_slid = load_be16(mad + kDrSlid);
  key.dr_dlid = load_be16(mad + kDrDlid);
  // At most 63 hops: a path longer than its field would read past it.
  key.hops = std::min<std::uint8_t>(mad[kHopCount], 63);
  std::copy_n(mad + kInitialPath + 1, key.hops, key.path.begin() + 1);
  if (key.method != 0x01) std::copy_n(mad + kData, key.data.size(), key.data.begin());
  return key;
}

std::string describe_dr_smp(const DrSmpKey& key) {
  std::string text = attribute_name(kDirectedRouteClass, key.attribute) + " " +
                     method_name(key.method) + " by directed route 0";
  for (int hop = 1; hop <= key.hops; ++hop) text += "," + std::to_string(key.path[hop]);
  if (key.attribute == kPortInfo)
    text += ", port " + std::to_string(key.modifier & 0xff);
  else if (key.modifier != 0)
    text += ", modifier " + std::to_string(key.modifier);
  return text;
}

}  // namespace ibpm::mad
