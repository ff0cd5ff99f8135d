// counters_near_max: which counters a --reset-counters run clears.
#include <catch2/catch.hpp>

#include "poll/counter_reset.hpp"

using namespace ibpm;
using ibpm::poll::counters_near_max;

namespace {

std::size_t at(Counter c) { return static_cast<std::size_t>(c); }

mad::CounterValues zeros() {
  mad::CounterValues v;
  for (auto& x : v) x = 0;
  return v;
}

}  // namespace

TEST_CASE("counters_near_max takes the counters at or above the fraction of their width") {
  mad::CounterValues v = zeros();
  v[at(Counter::symbol_errors)] = 49152;  // 16 bits: 0.75 x 65535 = 49151.25
  v[at(Counter::rcv_errors)] = 49151;     // just below
  v[at(Counter::link_downed)] = 192;      // 8 bits: 0.75 x 255 = 191.25
  v[at(Counter::link_error_recovery)] = 191;
  v[at(Counter::local_link_integrity_errors)] = 12;  // 4 bits: 0.75 x 15 = 11.25
  CHECK(counters_near_max(v, true, 0.75) ==
        (counter_bit(Counter::symbol_errors) | counter_bit(Counter::link_downed) |
         counter_bit(Counter::local_link_integrity_errors)));
}

TEST_CASE("counters_near_max at a fraction of 1 takes only saturated counters") {
  mad::CounterValues v = zeros();
  v[at(Counter::symbol_errors)] = 65535;
  v[at(Counter::rcv_errors)] = 65534;
  CHECK(counters_near_max(v, false, 1.0) == counter_bit(Counter::symbol_errors));
}

TEST_CASE("counters_near_max never clears data counters of an extended agent") {
  mad::CounterValues v = zeros();
  for (Counter c : {Counter::xmit_data, Counter::rcv_data, Counter::xmit_pkts, Counter::rcv_pkts})
    v[at(c)] = ~std::uint64_t{0};
  CHECK(counters_near_max(v, true, 0.75) == 0);
  CHECK(counters_near_max(v, true, 0.01) == 0);
}

TEST_CASE("counters_near_max clears 32-bit data counters close to their maximum") {
  mad::CounterValues v = zeros();
  v[at(Counter::xmit_data)] = 0xF0000000u;
  v[at(Counter::rcv_pkts)] = 0x10000000u;
  v[at(Counter::xmit_wait)] = 0xFFFFFFFFu;  // not a data counter: cleared in both cases
  CHECK(counters_near_max(v, false, 0.75) ==
        (counter_bit(Counter::xmit_data) | counter_bit(Counter::xmit_wait)));
  CHECK(counters_near_max(v, true, 0.75) == counter_bit(Counter::xmit_wait));
}

TEST_CASE("counters_near_max skips counters that were not read") {
  mad::CounterValues v{};
  CHECK(counters_near_max(v, false, 0.01) == 0);
  v[at(Counter::symbol_errors)] = 60000;
  CHECK(counters_near_max(v, false, 0.75) == counter_bit(Counter::symbol_errors));
}
