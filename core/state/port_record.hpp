// SPDX-License-Identifier: MIT
// One sample of a port as the state keeps it, and its translation to and from RRD values: the
// update line written to the file, and the data sources' last values (ds[NAME].last_ds) read back.
// Numbers travel as exact decimal text, never through a double, so 64-bit readings survive.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>

#include "counters/counter.hpp"
#include "state/rrd_layout.hpp"

namespace ibpm::state {

struct PortRecord {
  double time = 0;                // epoch seconds, sub-second
  counters::CounterReadings raw;  // nullopt = not read ("U")
  std::uint32_t saturated = 0;    // bit i: counter i was at its maximum (its raw is written as U)
  bool extended = false;          // sample_flags bit 0
  bool all_extended = false;      // sample_flags bit 1 (set with bit 0)
  // The agent's capabilities as mad::stored_capabilities() packs them (CapabilityMask in the low
  // 16 bits; older samples have nothing above them).
  std::optional<std::uint32_t> pma_cap_mask;
  std::optional<double> last_reset;  // epoch seconds
  std::uint32_t reset_mask = 0;
  // Bit i: counter i is written to the RRD as U although it was read, because it was read from
  // another attribute than in the previous sample (source_changed): RRD's DERIVE must not make a
  // rate across two different counters. Only for the update line; neither kept in the sample
  // record nor read back from the RRD.
  std::uint32_t rrd_unknown = 0;

  friend bool operator==(const PortRecord&, const PortRecord&) = default;
};

// sample_flags bit 0: the data and packet counters came from the 64-bit PortCountersExtended.
constexpr std::uint32_t kSampleExtended = 1;
// sample_flags bit 1: every counter came from PortCountersExtended alone (with its additional
// counters), 64-bit; bit 0 is set too.
constexpr std::uint32_t kSampleAllExtended = 2;

// How wide `counter` was in a sample: with all_extended every counter is 64-bit; with extended
// PortCountersExtended carries the data and packet counters in 64 bits and everything else comes
// from PortCounters; otherwise the PortCounters widths.
unsigned sample_width(counters::Counter counter, bool extended, bool all_extended);

// The counters read from another attribute in `current` than in `previous`, which makes them
// different counters in the agent: the data and packet counters when `extended` differs, the
// others when `all_extended` does.
counters::CounterMask source_changed(const PortRecord& previous, const PortRecord& current);

// "TIME:V1:...:V23" for rrd_update, values in data source order. Saturated and unread counters,
// and those in rrd_unknown, are "U": a sticky counter at its maximum says nothing exact, and RRD
// must not make a rate of it. Throws std::invalid_argument (update_refusal's reason) when the
// time is not a positive finite number.
std::string update_line(const PortRecord& record);
// update_line appended to `line` (no string of its own: a sweep writes one per port).
void append_update_line(std::string& line, const PortRecord& record);

// Why update_line refuses the record; empty when it takes it.
std::string update_refusal(const PortRecord& record);

// The record a file's last values describe (one string per data source, in source order); a
// saturated counter reads back as its maximum. Throws std::invalid_argument naming the data source
// whose value is not one we write.
PortRecord record_from_last_values(const std::array<std::string, kSourceCount>& last);

}  // namespace ibpm::state
