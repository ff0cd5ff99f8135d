// SPDX-License-Identifier: MIT
// error_rate: which counters count as errors and how their rates add up.
#include <catch2/catch.hpp>

#include "thresholds/error_rate.hpp"

using namespace ibpm;

TEST_CASE("error_rate sums the error counters' rates only", "[thresholds][error_rate]") {
  const double rate = thresholds::error_rate([](counters::Counter c) -> std::optional<double> {
    if (c == counters::Counter::symbol_errors) return 2.5;
    if (c == counters::Counter::rcv_errors) return 1.0;
    if (c == counters::Counter::xmit_data) return 1e9;  // data, not an error
    if (c == counters::Counter::link_downed) return std::nullopt;
    return 0.0;
  });
  CHECK(rate == 3.5);
}

TEST_CASE("error_rate counts every error counter once and none other", "[thresholds][error_rate]") {
  std::size_t errors = 0;
  for (const counters::CounterSpec& s : counters::counter_specs()) errors += s.error;
  CHECK(thresholds::error_rate([](counters::Counter) { return std::optional<double>(1.0); }) ==
        static_cast<double>(errors));
  CHECK(thresholds::error_rate([](counters::Counter) { return std::optional<double>(); }) == 0.0);
}
