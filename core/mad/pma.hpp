// The Performance Management Agent's attributes as MadQuery requests and decoded replies:
// ClassPortInfo (what the agent supports), PortCounters (0x12), PortCountersExtended (0x1D),
// and counter resets (Set with a CounterSelect mask). Packet layouts are libibmad's fields.
#pragma once

#include <array>
#include <cstdint>
#include <optional>

#include "counters/counter.hpp"
#include "mad/mad_engine.hpp"

namespace ibpm::mad {

// ClassPortInfo:CapabilityMask bits of the PMA.
constexpr std::uint16_t kPmaAllPortSelect = 1u << 8;
constexpr std::uint16_t kPmaExtendedWidth = 1u << 9;         // PortCountersExtended, all fields
constexpr std::uint16_t kPmaExtendedWidthNoIetf = 1u << 10;  // PortCountersExtended, no IETF MIB
constexpr std::uint16_t kPmaXmitWait = 1u << 12;             // PortCounters:PortXmitWait

struct PmaCapabilities {
  std::uint16_t mask = 0;
  bool extended() const { return mask & (kPmaExtendedWidth | kPmaExtendedWidthNoIetf); }
  bool xmit_wait() const { return mask & kPmaXmitWait; }
};

// One reading of a port's counters; nullopt where the agent does not have the counter.
using CounterValues = counters::CounterReadings;

MadQuery class_port_info_query(unsigned lid);
PmaCapabilities decode_class_port_info(const MadData& data);

MadQuery port_counters_query(unsigned lid, unsigned port);
MadQuery port_counters_extended_query(unsigned lid, unsigned port);

// All PortCounters fields; PortXmitWait only when the agent says it counts it.
void decode_port_counters(const MadData& data, const PmaCapabilities& caps, CounterValues& values);
// The 64-bit data and packet counters, replacing the 32-bit ones.
void decode_port_counters_extended(const MadData& data, CounterValues& values);

// PortCounters Set clearing exactly the counters in `mask` (CounterSelect/CounterSelect2).
MadQuery reset_port_counters_query(unsigned lid, unsigned port, counters::CounterMask mask);
// PortCountersExtended Set clearing the data/packet counters in `mask`.
MadQuery reset_port_counters_extended_query(unsigned lid, unsigned port,
                                            counters::CounterMask mask);

// The PortCounters CounterSelect and CounterSelect2 bits for `mask`, as the PMA numbers them.
std::uint16_t counter_select(counters::CounterMask mask);
std::uint8_t counter_select2(counters::CounterMask mask);

}  // namespace ibpm::mad
