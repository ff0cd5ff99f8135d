// SPDX-License-Identifier: MIT

#include "counters/counter.hpp"

#include <stdexcept>

namespace ibpm::counters {

const std::array<CounterSpec, kCounterCount>& counter_specs() {
  static const std::array<CounterSpec, kCounterCount> kSpecs{{
      {Counter::symbol_errors, "SymbolErrorCounter", "symbol_errors", 16, true, false},
      {Counter::link_error_recovery, "LinkErrorRecoveryCounter", "link_recovers", 8, true, false},
      {Counter::link_downed, "LinkDownedCounter", "link_downed", 8, true, false},
      {Counter::rcv_errors, "PortRcvErrors", "rcv_errors", 16, true, false},
      {Counter::rcv_remote_physical_errors, "PortRcvRemotePhysicalErrors", "rcv_remote_phys", 16,
       true, false},
      {Counter::rcv_switch_relay_errors, "PortRcvSwitchRelayErrors", "rcv_switch_relay", 16, true,
       false},
      {Counter::xmit_discards, "PortXmitDiscards", "xmit_discards", 16, true, false},
      {Counter::xmit_constraint_errors, "PortXmitConstraintErrors", "xmit_constraint", 8, true,
       false},
      {Counter::rcv_constraint_errors, "PortRcvConstraintErrors", "rcv_constraint", 8, true, false},
      {Counter::local_link_integrity_errors, "LocalLinkIntegrityErrors", "link_integrity", 4, true,
       false},
      {Counter::excessive_buffer_overrun_errors, "ExcessiveBufferOverrunErrors", "buffer_overrun",
       4, true, false},
      {Counter::vl15_dropped, "VL15Dropped", "vl15_dropped", 16, true, false},
      {Counter::xmit_wait, "PortXmitWait", "xmit_wait", 32, false, false},
      {Counter::xmit_data, "PortXmitData", "xmit_data", 32, false, true},
      {Counter::rcv_data, "PortRcvData", "rcv_data", 32, false, true},
      {Counter::xmit_pkts, "PortXmitPkts", "xmit_pkts", 32, false, false},
      {Counter::rcv_pkts, "PortRcvPkts", "rcv_pkts", 32, false, false},
  }};
  return kSpecs;
}

const CounterSpec& spec(Counter counter) {
  return counter_specs().at(static_cast<std::size_t>(counter));
}

std::optional<Counter> counter_by_key(std::string_view key) {
  for (const CounterSpec& s : counter_specs())
    if (s.key == key) return s.id;
  return std::nullopt;
}

std::string describe_counters(CounterMask mask) {
  std::string text;
  for (const CounterSpec& s : counter_specs()) {
    if (!(mask & counter_bit(s.id))) continue;
    if (!text.empty()) text += ", ";
    text += s.key;
  }
  return text;
}

CounterDelta counter_delta(std::uint64_t previous, std::uint64_t current, unsigned bits) {
  const std::uint64_t max = counter_max(bits);
  if (current > max || previous > max)
    throw std::out_of_range("counter value wider than " + std::to_string(bits) + " bits");
  if (current < previous) return {DeltaKind::reset, current};
  if (current == max) return {DeltaKind::saturated, current - previous};
  return {DeltaKind::exact, current - previous};
}

std::optional<Rate> rate_of(const CounterDelta& delta, double seconds) {
  if (!(seconds > 0)) return std::nullopt;
  return Rate{static_cast<double>(delta.value) / seconds, delta.kind == DeltaKind::saturated};
}

double default_xmit_wait_tick(double capacity_bps) { return 32.0 / capacity_bps; }

}  // namespace ibpm::counters
