// SPDX-License-Identifier: MIT
// compute_rates: two records of a port into per-second rates, utilization and XmitWait %.
#include <catch2/catch.hpp>

#include "poll/port_rates.hpp"

using namespace ibpm;
using ibpm::poll::compute_rates;
using ibpm::state::PortRecord;

namespace {

constexpr double kHdr4x = 200e9;  // bit/s

std::size_t at(counters::Counter c) { return static_cast<std::size_t>(c); }

// Every counter read, at zero, at `time`.
PortRecord record(double time, bool extended = true) {
  PortRecord r;
  r.time = time;
  r.extended = extended;
  for (auto&& raw : r.raw) raw = 0;
  return r;
}

}  // namespace

TEST_CASE("compute_rates without a previous sample is a baseline") {
  const auto rates = compute_rates(nullptr, record(1000), kHdr4x);
  CHECK(rates.baseline);
  for (const auto& r : rates.rate) CHECK_FALSE(r);
  CHECK_FALSE(rates.xmit_util_pct);
  CHECK_FALSE(rates.xmit_wait_pct);
}

TEST_CASE("compute_rates with a previous sample at the same time or later is a baseline") {
  const PortRecord same = record(1000), later = record(1001);
  CHECK(compute_rates(&same, record(1000), kHdr4x).baseline);
  CHECK(compute_rates(&later, record(1000), kHdr4x).baseline);
}

TEST_CASE("compute_rates divides the exact increase by the interval") {
  PortRecord before = record(1000.250);
  PortRecord now = record(1010.250);
  before.raw[at(counters::Counter::symbol_errors)] = 5;
  now.raw[at(counters::Counter::symbol_errors)] = 25;
  now.raw[at(counters::Counter::link_downed)] = 3;
  const auto rates = compute_rates(&before, now, kHdr4x);
  REQUIRE_FALSE(rates.baseline);
  CHECK(rates.interval == Approx(10.0));
  REQUIRE(rates.of(counters::Counter::symbol_errors));
  CHECK(rates.of(counters::Counter::symbol_errors)->per_second == Approx(2.0));
  CHECK_FALSE(rates.of(counters::Counter::symbol_errors)->lower_bound);
  CHECK(rates.of(counters::Counter::link_downed)->per_second == Approx(0.3));
  CHECK(rates.of(counters::Counter::rcv_errors)->per_second == 0);
  CHECK(rates.saturated == 0);
  CHECK(rates.reset_seen == 0);
}

TEST_CASE("compute_rates leaves a counter not read in either sample unknown") {
  PortRecord before = record(1000);
  PortRecord now = record(1002);
  before.raw[at(counters::Counter::xmit_wait)].reset();
  now.raw[at(counters::Counter::vl15_dropped)].reset();
  const auto rates = compute_rates(&before, now, kHdr4x);
  CHECK_FALSE(rates.of(counters::Counter::xmit_wait));
  CHECK_FALSE(rates.of(counters::Counter::vl15_dropped));
  CHECK_FALSE(rates.xmit_wait_pct);
  CHECK(rates.of(counters::Counter::symbol_errors));
}

TEST_CASE("compute_rates gives a saturated counter as a lower bound") {
  PortRecord before = record(1000);
  PortRecord now = record(1004);
  before.raw[at(counters::Counter::symbol_errors)] = 535;
  now.raw[at(counters::Counter::symbol_errors)] = 65535;  // 16 bits: sticky at its maximum
  now.raw[at(counters::Counter::link_downed)] = 255;      // 8 bits
  const auto rates = compute_rates(&before, now, kHdr4x);
  CHECK(rates.saturated == (counters::counter_bit(counters::Counter::symbol_errors) |
                            counter_bit(counters::Counter::link_downed)));
  REQUIRE(rates.of(counters::Counter::symbol_errors));
  CHECK(rates.of(counters::Counter::symbol_errors)->per_second == Approx(65000.0 / 4));
  CHECK(rates.of(counters::Counter::symbol_errors)->lower_bound);
  CHECK(rates.of(counters::Counter::link_downed)->lower_bound);
  CHECK_FALSE(rates.of(counters::Counter::rcv_errors)->lower_bound);
}

TEST_CASE("compute_rates marks saturated counters even in a baseline") {
  PortRecord now = record(1000);
  now.raw[at(counters::Counter::symbol_errors)] = 65535;
  CHECK(compute_rates(nullptr, now, kHdr4x).saturated ==
        counters::counter_bit(counters::Counter::symbol_errors));
}

TEST_CASE("compute_rates counts a counter reset by someone else from zero") {
  PortRecord before = record(1000);
  PortRecord now = record(1002);
  before.raw[at(counters::Counter::symbol_errors)] = 1000;
  now.raw[at(counters::Counter::symbol_errors)] = 5;
  const auto rates = compute_rates(&before, now, kHdr4x);
  CHECK(rates.reset_seen == counters::counter_bit(counters::Counter::symbol_errors));
  REQUIRE(rates.of(counters::Counter::symbol_errors));
  CHECK(rates.of(counters::Counter::symbol_errors)->per_second == Approx(2.5));
  CHECK_FALSE(rates.of(counters::Counter::symbol_errors)->lower_bound);
}

TEST_CASE("compute_rates does not compare data counters read from another attribute") {
  PortRecord before = record(1000, false);  // 32-bit PortCounters
  PortRecord now = record(1010, true);      // 64-bit PortCountersExtended
  before.raw[at(counters::Counter::xmit_data)] = 4'000'000'000;
  now.raw[at(counters::Counter::xmit_data)] = 5'000'000'000;
  before.raw[at(counters::Counter::symbol_errors)] = 1;
  now.raw[at(counters::Counter::symbol_errors)] = 11;
  const auto rates = compute_rates(&before, now, kHdr4x);
  REQUIRE_FALSE(rates.baseline);
  for (counters::Counter c : {counters::Counter::xmit_data, counters::Counter::rcv_data,
                              counters::Counter::xmit_pkts, counters::Counter::rcv_pkts})
    CHECK_FALSE(rates.of(c));
  CHECK(rates.reset_seen == 0);
  CHECK_FALSE(rates.xmit_util_pct);
  CHECK_FALSE(rates.rcv_util_pct);
  REQUIRE(rates.of(counters::Counter::symbol_errors));
  CHECK(rates.of(counters::Counter::symbol_errors)->per_second == Approx(1.0));
  // And back from 64 to 32 bits: again not comparable.
  const auto back = compute_rates(
      &now,
      [] {
        PortRecord r = record(1020, false);
        r.raw[at(counters::Counter::xmit_data)] = 7;
        return r;
      }(),
      kHdr4x);
  CHECK_FALSE(back.of(counters::Counter::xmit_data));
}

TEST_CASE("compute_rates keeps 64-bit data counters exact beyond 32 bits") {
  PortRecord before = record(1000);
  PortRecord now = record(1001);
  before.raw[at(counters::Counter::xmit_data)] =
      0xFFFFFFFFull;  // the 32-bit maximum is no limit here
  now.raw[at(counters::Counter::xmit_data)] = 0xFFFFFFFFull + 1'000'000'000'000ull;
  const auto rates = compute_rates(&before, now, kHdr4x);
  REQUIRE(rates.of(counters::Counter::xmit_data));
  CHECK(rates.of(counters::Counter::xmit_data)->per_second == Approx(1e12));
  CHECK_FALSE(rates.of(counters::Counter::xmit_data)->lower_bound);
  CHECK(rates.saturated == 0);
}

TEST_CASE("compute_rates turns data words into utilization of the link capacity") {
  PortRecord before = record(1000);
  PortRecord now = record(1010);
  // 1e9 words in 10 s: 1e8 words/s = 3.2e9 bit/s = 1.6 % of 4x HDR.
  now.raw[at(counters::Counter::xmit_data)] = 1'000'000'000;
  now.raw[at(counters::Counter::rcv_data)] = 3'125'000'000;  // 1e10 bit/s: 5 % of 200 Gb/s
  const auto rates = compute_rates(&before, now, kHdr4x);
  REQUIRE(rates.capacity_bps);
  CHECK(*rates.capacity_bps == kHdr4x);
  REQUIRE(rates.xmit_util_pct);
  CHECK(*rates.xmit_util_pct == Approx(1.6));
  REQUIRE(rates.rcv_util_pct);
  CHECK(*rates.rcv_util_pct == Approx(5.0));
}

TEST_CASE("compute_rates gives no utilization without a capacity") {
  PortRecord before = record(1000);
  PortRecord now = record(1010);
  now.raw[at(counters::Counter::xmit_data)] = 1000;
  now.raw[at(counters::Counter::xmit_wait)] = 1000;
  const auto rates = compute_rates(&before, now, std::nullopt);
  CHECK(rates.of(counters::Counter::xmit_data));
  CHECK_FALSE(rates.xmit_util_pct);
  CHECK_FALSE(rates.rcv_util_pct);
  CHECK_FALSE(rates.xmit_wait_pct);
}

TEST_CASE("compute_rates turns XmitWait ticks into a share of the interval") {
  PortRecord before = record(1000);
  PortRecord now = record(1010);
  now.raw[at(counters::Counter::xmit_wait)] = 1'000'000'000;  // 1e8 ticks/s
  SECTION("default tick: one 4-octet word at the link rate") {
    CHECK(counters::default_xmit_wait_tick(kHdr4x) == Approx(32.0 / 200e9));
    const auto rates = compute_rates(&before, now, kHdr4x);
    REQUIRE(rates.xmit_wait_pct);
    CHECK(*rates.xmit_wait_pct == Approx(1e8 * 32.0 / 200e9 * 100));  // 1.6 %
  }
  SECTION("a given tick") {
    const auto rates = compute_rates(&before, now, kHdr4x, 1e-9);
    REQUIRE(rates.xmit_wait_pct);
    CHECK(*rates.xmit_wait_pct == Approx(10.0));
  }
}

namespace {

// Every counter read from PortCountersExtended alone, at zero.
PortRecord all_extended_record(double time) {
  PortRecord r = record(time, true);
  r.all_extended = true;
  return r;
}

}  // namespace

TEST_CASE("compute_rates with every counter 64-bit: error counters beyond 16 bits are exact") {
  PortRecord before = all_extended_record(1000);
  PortRecord now = all_extended_record(1010);
  before.raw[at(counters::Counter::symbol_errors)] = 65535;  // the 16-bit maximum: no limit here
  now.raw[at(counters::Counter::symbol_errors)] = 65535 + 1000;
  before.raw[at(counters::Counter::link_downed)] = 255;
  now.raw[at(counters::Counter::link_downed)] = 275;
  now.raw[at(counters::Counter::xmit_wait)] = 0x100000000ULL * 10;  // past 32 bits
  const auto rates = compute_rates(&before, now, kHdr4x);
  REQUIRE_FALSE(rates.baseline);
  CHECK(rates.saturated == 0);
  CHECK(rates.reset_seen == 0);
  REQUIRE(rates.of(counters::Counter::symbol_errors));
  CHECK(rates.of(counters::Counter::symbol_errors)->per_second == Approx(100));
  CHECK_FALSE(rates.of(counters::Counter::symbol_errors)->lower_bound);
  REQUIRE(rates.of(counters::Counter::link_downed));
  CHECK(rates.of(counters::Counter::link_downed)->per_second == Approx(2));
  REQUIRE(rates.of(counters::Counter::xmit_wait));
  CHECK(rates.of(counters::Counter::xmit_wait)->per_second == Approx(0x100000000ULL));
}

TEST_CASE("compute_rates with every counter 64-bit: saturation only at the 64-bit maximum") {
  PortRecord before = all_extended_record(1000);
  PortRecord now = all_extended_record(1010);
  now.raw[at(counters::Counter::symbol_errors)] = 65535;
  now.raw[at(counters::Counter::local_link_integrity_errors)] = 15;
  now.raw[at(counters::Counter::rcv_errors)] = ~std::uint64_t{0};
  const auto rates = compute_rates(&before, now, kHdr4x);
  CHECK(rates.saturated == counters::counter_bit(counters::Counter::rcv_errors));
  REQUIRE(rates.of(counters::Counter::rcv_errors));
  CHECK(rates.of(counters::Counter::rcv_errors)->lower_bound);
  CHECK_FALSE(rates.of(counters::Counter::symbol_errors)->lower_bound);
  CHECK(poll::at_maximum(now.raw, true, true) ==
        counters::counter_bit(counters::Counter::rcv_errors));
  CHECK(poll::at_maximum(now.raw, true, false) ==
        (counters::counter_bit(counters::Counter::symbol_errors) |
         counter_bit(counters::Counter::local_link_integrity_errors) |
         counter_bit(counters::Counter::rcv_errors)));
}

TEST_CASE("compute_rates does not compare error counters across the one-MAD switch") {
  // The 16-bit PortCounters error counters and the 64-bit PortCountersExtended ones are separate
  // counters: a rate between them would be wrong (or throw on a value wider than 16 bits).
  PortRecord before = record(1000, true);  // PortCounters + 64-bit data counters
  PortRecord now = all_extended_record(1010);
  before.raw[at(counters::Counter::symbol_errors)] = 10;
  now.raw[at(counters::Counter::symbol_errors)] = 1'000'000;
  before.raw[at(counters::Counter::xmit_wait)] = 5;
  now.raw[at(counters::Counter::xmit_wait)] = 0x1'0000'0000ULL;
  before.raw[at(counters::Counter::xmit_data)] = 1000;
  now.raw[at(counters::Counter::xmit_data)] = 2000;
  const auto rates = compute_rates(&before, now, kHdr4x);
  REQUIRE_FALSE(rates.baseline);
  for (const counters::CounterSpec& s : counters::counter_specs()) {
    INFO(s.name);
    CHECK(rates.of(s.id).has_value() == bool(counters::kDataCounterMask & counter_bit(s.id)));
  }
  CHECK(rates.of(counters::Counter::xmit_data)->per_second == Approx(100));
  CHECK(rates.reset_seen == 0);
  // And back.
  const auto back = compute_rates(&now, record(1020, true), kHdr4x);
  CHECK_FALSE(back.of(counters::Counter::symbol_errors));
  REQUIRE(back.of(counters::Counter::xmit_data));  // the 64-bit data counters still compare
  CHECK(back.reset_seen == counters::counter_bit(counters::Counter::xmit_data));
}
