// SPDX-License-Identifier: MIT

#include <catch2/catch.hpp>
#include <set>

#include "counters/counter.hpp"
#include "counters/optional_double.hpp"

using namespace ibpm;
using namespace ibpm::counters;

TEST_CASE("every counter has a width / and a key fit for RRD and perfdata") {
  std::set<std::string_view> keys;
  for (const CounterSpec& s : counter_specs()) {
    INFO(s.name);
    CHECK(spec(s.id).name == s.name);  // the table is in enum order
    CHECK(s.key.size() <= 19);
    for (char c : s.key) CHECK(((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_'));
    CHECK(keys.insert(s.key).second);
    CHECK(counter_by_key(s.key) == s.id);
  }
  CHECK(spec(Counter::symbol_errors).bits == 16);
  CHECK(spec(Counter::link_downed).bits == 8);
  CHECK(spec(Counter::local_link_integrity_errors).bits == 4);
  CHECK(spec(Counter::xmit_data).bits == 32);
  CHECK(spec(Counter::xmit_data).data_words);
  CHECK_FALSE(counter_by_key("nonsense"));
}

TEST_CASE("counter arithmetic at every width: exact / saturated / reset") {
  for (unsigned bits : {4u, 8u, 16u, 32u, 64u}) {
    INFO(bits << " bits");
    const std::uint64_t max = counter_max(bits);
    CHECK(counter_delta(1, 3, bits).kind == DeltaKind::exact);
    CHECK(counter_delta(1, 3, bits).value == 2);
    CHECK(counter_delta(max - 1, max - 1, bits).value == 0);

    // At the maximum the increase is only a lower bound.
    CounterDelta at_max = counter_delta(max - 2, max, bits);
    CHECK(at_max.kind == DeltaKind::saturated);
    CHECK(at_max.value == 2);
    CHECK(counter_delta(max, max, bits).kind == DeltaKind::saturated);

    // Lower than before: reset by someone else, counted from zero.
    CounterDelta reset = counter_delta(max - 1, 3, bits);
    CHECK(reset.kind == DeltaKind::reset);
    CHECK(reset.value == 3);

    if (bits < 64) CHECK_THROWS_AS(counter_delta(0, max + 1, bits), std::out_of_range);
  }
  CHECK(counter_max(4) == 15);
  CHECK(counter_max(32) == 0xffffffffull);
  CHECK(counter_max(64) == ~0ull);
}

TEST_CASE("a saturated counter gives a rate marked as a lower bound") {
  auto exact = rate_of(counter_delta(100, 700, 16), 60.0);
  REQUIRE(exact);
  CHECK(exact->per_second == Approx(10.0));
  CHECK_FALSE(exact->lower_bound);

  auto bound = rate_of(counter_delta(65000, 65535, 16), 10.0);
  REQUIRE(bound);
  CHECK(bound->per_second == Approx(53.5));
  CHECK(bound->lower_bound);

  CHECK_FALSE(rate_of(counter_delta(1, 2, 16), 0.0));
  CHECK_FALSE(rate_of(counter_delta(1, 2, 16), -1.0));
}

TEST_CASE("data counters count 4-octet words") {
  // A QDR link saturates the 32-bit PortXmitData in seconds: 2^32 words is 16 GiB.
  CHECK(to_octets(counter_max(32)) == 17'179'869'180ull);
  CHECK(to_octets(250) == 1000);
}

TEST_CASE("OptionalDouble holds a value or none in 8 bytes, read as a std::optional") {
  STATIC_REQUIRE(sizeof(OptionalDouble) == sizeof(double));
  OptionalDouble value;
  CHECK_FALSE(value);
  CHECK(std::optional<double>(value) == std::nullopt);
  CHECK(value.value_or(-1) == -1);
  value = 0;  // zero and negative numbers are values, not none
  REQUIRE(value);
  CHECK(*value == 0);
  value = -2.5;
  CHECK(std::optional<double>(value) == -2.5);
  value.reset();
  CHECK_FALSE(value.has_value());
  value = std::optional<double>(12.5);
  CHECK(*value == 12.5);
  value = std::optional<double>();
  CHECK_FALSE(value);
  value = 1;
  value = std::nullopt;
  CHECK_FALSE(value);
}
