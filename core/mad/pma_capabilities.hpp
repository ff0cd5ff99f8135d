// SPDX-License-Identifier: MIT
// What a Performance Management Agent can do (its ClassPortInfo capability masks, as the state
// keeps them) and one reading of a port's counters: the vocabulary of samples and results, apart
// from the queries and the engine that sends them (mad/pma.hpp).
#pragma once

#include <cstdint>
#include <optional>

#include "counters/counter.hpp"

namespace ibpm::mad {

// ClassPortInfo:CapabilityMask bits of the PMA.
constexpr std::uint16_t kPmaAllPortSelect = 1u << 8;
constexpr std::uint16_t kPmaExtendedWidth = 1u << 9;         // PortCountersExtended, all fields
constexpr std::uint16_t kPmaExtendedWidthNoIetf = 1u << 10;  // PortCountersExtended, no IETF MIB
constexpr std::uint16_t kPmaXmitWait = 1u << 12;             // PortCounters:PortXmitWait
// ClassPortInfo:CapabilityMask2 bits of the PMA (the 27 bits above RespTimeValue).
// Bit 1, IsAdditionalPortCountersExtendedSupported (IB_PM_IS_ADDL_PORT_CTRS_EXT_SUP in OpenSM's
// ib_types.h and infiniband-diags' perfquery): PortCountersExtended also carries the error
// counters, PortXmitWait and QP1Dropped, all 64-bit. (Bit 0 is IsPMKeySupported.)
constexpr std::uint32_t kPmaAdditionalExtended = 1u << 1;

struct PmaCapabilities {
  std::uint16_t mask = 0;
  std::uint32_t mask2 = 0;
  bool extended() const { return mask & (kPmaExtendedWidth | kPmaExtendedWidthNoIetf); }
  bool xmit_wait() const { return mask & kPmaXmitWait; }
  // Every counter from PortCountersExtended alone, in one MAD per port.
  bool all_extended() const { return extended() && (mask2 & kPmaAdditionalExtended); }

  friend bool operator==(const PmaCapabilities&, const PmaCapabilities&) = default;
};

// The capabilities as the state keeps them (the sample's pma_cap_mask, a 32-bit value): bits
// 0..15 CapabilityMask, bits 16..30 CapabilityMask2's bits 0..14, bit 31 set to say that
// CapabilityMask2 was recorded at all. A value without bit 31 (written before CapabilityMask2
// was kept) gives nullopt: the agent's ClassPortInfo is asked again.
constexpr std::uint32_t kStoredMask2Known = 1u << 31;
std::uint32_t stored_capabilities(const PmaCapabilities& caps);
std::optional<PmaCapabilities> capabilities_from_stored(std::uint32_t stored);

// One reading of a port's counters; nullopt where the agent does not have the counter.
using CounterValues = counters::CounterReadings;

}  // namespace ibpm::mad
