// SPDX-License-Identifier: MIT
// Directed-route SMPs (management class 0x81), which libibnetdisc's discovery sends and our MAD
// engine never does: what a recorded one asks, so that a replay finds its answer by content (the
// transaction ids libibmad and libibnetdisc pick are random), and how it travels (IBA volume 1,
// 14.2.2: a request routed by its path alone carries the permissive LID as LRH source and
// destination).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>

namespace ibpm::mad {

constexpr std::uint8_t kDirectedRouteClass = 0x81;
constexpr unsigned kPermissiveLid = 0xffff;
// A directed-route SMP up to the end of its initial path (the return path follows).
constexpr std::size_t kDrSmpRequestSize = 192;

// What a directed-route SMP asks: method, attribute, modifier, the path out (DrSLID, DrDLID, hop
// count and the ports of the initial path, byte 0 of which is unused) and, for a Set, its data.
struct DrSmpKey {
  std::uint8_t method = 0;
  std::uint16_t attribute = 0;
  std::uint32_t modifier = 0;
  unsigned dr_slid = 0;
  unsigned dr_dlid = 0;
  std::uint8_t hops = 0;
  std::array<std::uint8_t, 64> path{};  // ports 1..hops, the rest zero
  std::array<std::uint8_t, 64> data{};  // a Get's: zero
  auto operator<=>(const DrSmpKey&) const = default;
};

// Whether a MAD (at least its 24-byte common header) is a directed-route SMP.
bool is_directed_route(const std::uint8_t* mad);

// Whether a directed-route SMP of at least kDrSmpRequestSize bytes is routed by its path alone
// from end to end (DrSLID and DrDLID permissive): its LRH holds the permissive LID both ways.
bool routed_by_path_alone(const std::uint8_t* mad);

// The key of a directed-route SMP request of at least kDrSmpRequestSize bytes.
DrSmpKey dr_smp_key(const std::uint8_t* mad);

// "NodeInfo Get by directed route 0,1,3", "PortInfo Get by directed route 0,2, port 5", for
// messages (the path as ibnetdiscover and smpquery -D write it).
std::string describe_dr_smp(const DrSmpKey& key);

}  // namespace ibpm::mad
