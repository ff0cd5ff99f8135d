// SPDX-License-Identifier: MIT
// The shape of a port's RRD file. Counters are DERIVE data sources fed with raw readings, so the
// file keeps the exact last reading in its header and computes the rates of the history itself;
// GAUGEs keep what the next run needs to know about the sample. Archives: AVERAGE and MAX for a
// day at full resolution (at most 1440 rows: shorter with steps under a minute), four weeks at
// one hour, a year at one day.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "counters/counter.hpp"

namespace ibpm::state {

struct RrdLayout {
  std::chrono::seconds step{60};
  std::chrono::seconds heartbeat{900};
  // History kept by newly created files: hours at full resolution (at most 1440 rows), then days
  // of hourly rows and days of daily rows (0 leaves that archive out). With the defaults a port's
  // file takes about 0.9 MB; each archive costs 2 x rows x 184 bytes (AVERAGE and MAX).
  int full_hours = 24;
  int hourly_days = 28;
  int daily_days = 365;
};

// Throws std::invalid_argument unless the step divides an hour (so that hours and days are whole
// numbers of steps), the heartbeat is positive and some history is kept at full resolution.
void validate(const RrdLayout& layout);

// The GAUGE data sources, in file order after the counters.
enum class Gauge : std::uint8_t {
  sample_time,   // epoch seconds of the sample, with milliseconds
  saturated,     // bit i: counter i was at its maximum
  sample_flags,  // kSampleExtended, kSampleAllExtended
  pma_cap_mask,  // the node's PMA ClassPortInfo CapabilityMask (and CapabilityMask2, packed)
  last_reset,    // epoch seconds of ibpm's last counter reset on the port
  reset_mask,    // bit i: that reset cleared counter i
};
constexpr std::size_t kGaugeCount = 6;
constexpr std::size_t kSourceCount = counters::kCounterCount + kGaugeCount;

// Index of a data source in the file (and in an update line).
constexpr std::size_t source_index(counters::Counter counter) {
  return static_cast<std::size_t>(counter);
}
constexpr std::size_t source_index(Gauge gauge) {
  return counters::kCounterCount + static_cast<std::size_t>(gauge);
}

// The data sources of a subtree's aggregate file (PortStore::write_aggregates), all GAUGEs:
// octets per second its hosts send (gen) and receive (con), that leave (out) and enter (in) it
// over its border cables, and how many of those directions the sums hold (directions).
enum class AggregateSource : std::uint8_t { gen, con, out, in, directions };
constexpr std::size_t kAggregateSourceCount = 5;
std::string_view aggregate_source_name(AggregateSource source);
// The DS:... and RRA:... arguments of an aggregate file.
std::vector<std::string> aggregate_definitions(const RrdLayout& layout);

// Data source names in file order: the counter keys in Counter order, then the gauges.
std::string_view source_name(std::size_t index);
constexpr bool source_is_counter(std::size_t index) { return index < counters::kCounterCount; }
// "DERIVE" or "GAUGE", as rrd_info reports ds[NAME].type.
std::string_view source_type(std::size_t index);

// The DS:... and RRA:... arguments for rrd_create.
std::vector<std::string> create_definitions(const RrdLayout& layout);
// The RRA:... arguments alone (the port files' archives, which other files of the store share).
std::vector<std::string> archive_definitions(const RrdLayout& layout);

}  // namespace ibpm::state
