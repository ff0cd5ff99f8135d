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
  std::optional<std::uint32_t> pma_cap_mask;
  std::optional<double> last_reset;  // epoch seconds
  std::uint32_t reset_mask = 0;

  friend bool operator==(const PortRecord&, const PortRecord&) = default;
};

// sample_flags bit 0: the data and packet counters came from the 64-bit PortCountersExtended.
constexpr std::uint32_t kSampleExtended = 1;

// How wide `counter` was in a sample: PortCountersExtended carries the data and packet counters
// in 64 bits; everything else comes from PortCounters.
unsigned sample_width(counters::Counter counter, bool extended);

// "TIME:V1:...:V23" for rrd_update, values in data source order. Saturated and unread counters are
// "U": a sticky counter at its maximum says nothing exact, and RRD must not make a rate of it.
// Throws std::invalid_argument when the time is not a positive finite number.
std::string update_line(const PortRecord& record);

// The record a file's last values describe (one string per data source, in source order); a
// saturated counter reads back as its maximum. Throws std::invalid_argument naming the data source
// whose value is not one we write.
PortRecord record_from_last_values(const std::array<std::string, kSourceCount>& last);

}  // namespace ibpm::state
