// SPDX-License-Identifier: MIT
// counters_near_max: which counters a --reset-counters run clears.
#include <catch2/catch.hpp>

#include "poll/counter_reset.hpp"

using namespace ibpm;
using ibpm::poll::counters_near_max;

namespace {

std::size_t counter_index(counters::Counter c) { return static_cast<std::size_t>(c); }

mad::CounterValues zeros() {
  mad::CounterValues v;
  for (auto&& x : v) x = 0;
  return v;
}

}  // namespace

TEST_CASE("counters_near_max takes the counters at or above the fraction of their width") {
  mad::CounterValues v = zeros();
  v[counter_index(counters::Counter::symbol_errors)] = 49152;  // 16 bits: 0.75 x 65535 = 49151.25
  v[counter_index(counters::Counter::rcv_errors)] = 49151;     // just below
  v[counter_index(counters::Counter::link_downed)] = 192;      // 8 bits: 0.75 x 255 = 191.25
  v[counter_index(counters::Counter::link_error_recovery)] = 191;
  v[counter_index(counters::Counter::local_link_integrity_errors)] =
      12;  // 4 bits: 0.75 x 15 = 11.25
  CHECK(counters_near_max(v, true, false, 0.75) ==
        (counters::counter_bit(counters::Counter::symbol_errors) |
         counter_bit(counters::Counter::link_downed) |
         counter_bit(counters::Counter::local_link_integrity_errors)));
}

TEST_CASE("counters_near_max at a fraction of 1 takes only saturated counters") {
  mad::CounterValues v = zeros();
  v[counter_index(counters::Counter::symbol_errors)] = 65535;
  v[counter_index(counters::Counter::rcv_errors)] = 65534;
  CHECK(counters_near_max(v, false, false, 1.0) ==
        counters::counter_bit(counters::Counter::symbol_errors));
}

TEST_CASE("counters_near_max never clears data counters of an extended agent") {
  mad::CounterValues v = zeros();
  for (counters::Counter c : {counters::Counter::xmit_data, counters::Counter::rcv_data,
                              counters::Counter::xmit_pkts, counters::Counter::rcv_pkts})
    v[counter_index(c)] = ~std::uint64_t{0};
  CHECK(counters_near_max(v, true, false, 0.75) == 0);
  CHECK(counters_near_max(v, true, false, 0.01) == 0);
}

TEST_CASE("counters_near_max clears 32-bit data counters close to their maximum") {
  mad::CounterValues v = zeros();
  v[counter_index(counters::Counter::xmit_data)] = 0xF0000000u;
  v[counter_index(counters::Counter::rcv_pkts)] = 0x10000000u;
  v[counter_index(counters::Counter::xmit_wait)] =
      0xFFFFFFFFu;  // not a data counter: cleared in both cases
  CHECK(counters_near_max(v, false, false, 0.75) ==
        (counters::counter_bit(counters::Counter::xmit_data) |
         counter_bit(counters::Counter::xmit_wait)));
  CHECK(counters_near_max(v, true, false, 0.75) == counter_bit(counters::Counter::xmit_wait));
}

TEST_CASE("counters_near_max skips counters that were not read") {
  mad::CounterValues v{};
  CHECK(counters_near_max(v, false, false, 0.01) == 0);
  v[counter_index(counters::Counter::symbol_errors)] = 60000;
  CHECK(counters_near_max(v, false, false, 0.75) ==
        counters::counter_bit(counters::Counter::symbol_errors));
}

TEST_CASE("counters_near_max with every counter 64-bit measures against the 64-bit maximum") {
  // A port read from PortCountersExtended alone: 16- and 8-bit maxima mean nothing there.
  mad::CounterValues v = zeros();
  v[counter_index(counters::Counter::symbol_errors)] = 65535;
  v[counter_index(counters::Counter::link_downed)] = 255;
  v[counter_index(counters::Counter::local_link_integrity_errors)] = 15;
  v[counter_index(counters::Counter::xmit_wait)] = 0xffffffffULL;
  CHECK(counters_near_max(v, true, true, 0.75) == 0);
  CHECK(counters_near_max(v, true, true, 1.0) == 0);

  const std::uint64_t max64 = ~std::uint64_t{0};
  v[counter_index(counters::Counter::rcv_errors)] = max64 / 4 * 3 + max64 / 100;  // above 75 %
  v[counter_index(counters::Counter::xmit_discards)] = max64 / 2;                 // below
  v[counter_index(counters::Counter::vl15_dropped)] = max64;
  v[counter_index(counters::Counter::xmit_data)] = max64;  // 64-bit data counters are never cleared
  v[counter_index(counters::Counter::rcv_pkts)] = max64;
  CHECK(counters_near_max(v, true, true, 0.75) ==
        (counters::counter_bit(counters::Counter::rcv_errors) |
         counter_bit(counters::Counter::vl15_dropped)));
  CHECK(counters_near_max(v, true, true, 1.0) == counter_bit(counters::Counter::vl15_dropped));
  // all_extended alone (without the extended flag) still leaves the data counters alone.
  CHECK(counters_near_max(v, false, true, 1.0) == counter_bit(counters::Counter::vl15_dropped));
}
