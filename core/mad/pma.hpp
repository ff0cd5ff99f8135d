// SPDX-License-Identifier: MIT
// The Performance Management Agent's attributes as MadQuery requests and decoded replies:
// ClassPortInfo (what the agent supports), PortCounters (0x12), PortCountersExtended (0x1D),
// and counter resets (Set with a CounterSelect mask). Packet layouts are libibmad's fields.
//
// A port is read in one of two ways (plan_counter_reads):
//   - PortCounters, plus PortCountersExtended for the 64-bit data and packet counters where
//     CapabilityMask says the agent has them: 1 or 2 MADs;
//   - PortCountersExtended alone where CapabilityMask2 also says the agent fills in its
//     additional fields (every error counter and PortXmitWait, 64-bit): 1 MAD.
#pragma once

#include <array>
#include <cstdint>
#include <optional>

#include "counters/counter.hpp"
#include "mad/mad_engine.hpp"
#include "mad/pma_capabilities.hpp"

namespace ibpm::mad {

MadQuery class_port_info_query(unsigned lid);
PmaCapabilities decode_class_port_info(const MadData& data);

MadQuery port_counters_query(unsigned lid, unsigned port);
MadQuery port_counters_extended_query(unsigned lid, unsigned port);

// The queries that read one port's counters.
enum class CounterRead : std::uint8_t {
  port_counters,  // PortCounters: every counter, data and packets 32-bit
  extended_data,  // PortCountersExtended for its 64-bit data and packet counters
  extended_all,   // PortCountersExtended for every counter, 64-bit
};
struct CounterReads {
  std::array<CounterRead, 2> reads{};
  std::size_t count = 0;
  const CounterRead* begin() const { return reads.data(); }
  const CounterRead* end() const { return reads.data() + count; }
};
// {extended_all} where the agent has the additional PortCountersExtended counters, else
// {port_counters, extended_data} where it has PortCountersExtended, else {port_counters}.
CounterReads plan_counter_reads(const PmaCapabilities& caps);
MadQuery counter_read_query(CounterRead read, unsigned lid, unsigned port);

// All PortCounters fields; PortXmitWait only when the agent says it counts it.
void decode_port_counters(const MadData& data, const PmaCapabilities& caps, CounterValues& values);
// The 64-bit data and packet counters, replacing the 32-bit ones.
void decode_port_counters_extended(const MadData& data, CounterValues& values);
// Every counter from PortCountersExtended with the additional counters, 64-bit; PortXmitWait
// only when the agent says it counts it (as in decode_port_counters).
void decode_port_counters_extended_all(const MadData& data, const PmaCapabilities& caps,
                                       CounterValues& values);

// PortCounters Set clearing exactly the counters in `mask` (CounterSelect/CounterSelect2).
MadQuery reset_port_counters_query(unsigned lid, unsigned port, counters::CounterMask mask);
// PortCountersExtended Set clearing the counters in `mask`: the data/packet counters through
// CounterSelect and, with `additional` (the agent has the additional counters), the error
// counters and PortXmitWait through CounterSelect2. Without it error counters are not selected.
MadQuery reset_port_counters_extended_query(unsigned lid, unsigned port, counters::CounterMask mask,
                                            bool additional = false);

// The PortCounters CounterSelect and CounterSelect2 bits for `mask`, as the PMA numbers them.
std::uint16_t counter_select(counters::CounterMask mask);
std::uint8_t counter_select2(counters::CounterMask mask);
// PortCountersExtended:CounterSelect2 for `mask`: bit i is the i-th additional field in
// attribute order (SymbolErrorCounter bit 0 ... PortXmitWait bit 12, QP1Dropped bit 13).
std::uint32_t extended_counter_select2(counters::CounterMask mask);

}  // namespace ibpm::mad
