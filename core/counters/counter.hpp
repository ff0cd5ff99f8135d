// SPDX-License-Identifier: MIT
// Port counters as the PMA defines them: width, saturation, 4-octet data units. Counters are
// sticky: they stop at their maximum instead of wrapping, so a counter at its maximum gives only
// a lower bound for its increase, never a rate that looks exact.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace ibpm::counters {

enum class Counter : std::uint8_t {
  symbol_errors,
  link_error_recovery,
  link_downed,
  rcv_errors,
  rcv_remote_physical_errors,
  rcv_switch_relay_errors,
  xmit_discards,
  xmit_constraint_errors,
  rcv_constraint_errors,
  local_link_integrity_errors,
  excessive_buffer_overrun_errors,
  vl15_dropped,
  xmit_wait,
  xmit_data,
  rcv_data,
  xmit_pkts,
  rcv_pkts,
};
constexpr std::size_t kCounterCount = 17;

struct CounterSpec {
  Counter id;
  std::string_view name;  // as perfquery prints it: "SymbolErrorCounter"
  std::string_view key;   // RRD data source / perfdata label: [a-z0-9_], at most 19 characters
  unsigned bits;          // width in PortCounters (the 64-bit extended ones are separate)
  bool error;             // an error counter (rates compared with error thresholds)
  bool data_words;        // counts 4-octet units (PortXmitData / PortRcvData)
};

const std::array<CounterSpec, kCounterCount>& counter_specs();
const CounterSpec& spec(Counter counter);
std::optional<Counter> counter_by_key(std::string_view key);

constexpr std::uint64_t counter_max(unsigned bits) {
  return bits >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << bits) - 1;
}

enum class DeltaKind {
  exact,      // current - previous
  saturated,  // the counter is at its maximum: value is a lower bound
  reset,      // lower than before: someone reset it; value counts from zero
};

struct CounterDelta {
  DeltaKind kind = DeltaKind::exact;
  std::uint64_t value = 0;
};

// The increase between two readings of a counter `bits` wide.
CounterDelta counter_delta(std::uint64_t previous, std::uint64_t current, unsigned bits);

struct Rate {
  double per_second = 0;
  bool lower_bound = false;  // from a saturated counter: the true rate is at least this
};

// Per second over `seconds`; nullopt when the interval is not positive.
std::optional<Rate> rate_of(const CounterDelta& delta, double seconds);

// A set of counters: bit i is Counter i.
using CounterMask = std::uint32_t;
constexpr CounterMask counter_bit(Counter counter) {
  return CounterMask{1} << static_cast<unsigned>(counter);
}
constexpr CounterMask kDataCounterMask =
    counter_bit(Counter::xmit_data) | counter_bit(Counter::rcv_data) |
    counter_bit(Counter::xmit_pkts) | counter_bit(Counter::rcv_pkts);

// "symbol_errors, link_downed": the keys of the counters in `mask`, in table order.
std::string describe_counters(CounterMask mask);

// Data counters count 4-octet words; everything else counts events.
constexpr std::uint64_t to_octets(std::uint64_t words) { return words * 4; }

// How long one PortXmitWait tick lasts, in seconds, when the operator does not say: the time
// the link needs to send one 4-octet data word, the unit PortXmitData counts in. At that tick,
// PortXmitWait and PortXmitData together can account for at most the whole interval.
double default_xmit_wait_tick(double capacity_bps);

}  // namespace ibpm::counters
