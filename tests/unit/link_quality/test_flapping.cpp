// SPDX-License-Identifier: MIT
// Flapping: downs of both ends of a cable counted once, the state held through the recovery
// period, and the streak's first and last down.
#include <catch2/catch.hpp>

#include "link_quality/flapping.hpp"

using namespace ibpm;
using namespace ibpm::link_quality;

namespace {

// A history with one down at each time (intervals of 60 s ending there), starting at `since`.
state::ErrorHistory downs_at(double since, std::initializer_list<double> times) {
  state::ErrorHistory h;
  h.since = since;
  for (double t : times) h.intervals.push_back({t, 60, {0, 0, 1}});
  return h;
}

}  // namespace

TEST_CASE("three downs within the window flap, two do not") {
  FlapSettings settings;  // 3 in 3600 s, recovery 3600 s
  const double t0 = 1e6;
  const auto two = downs_at(t0, {t0 + 600, t0 + 1200});
  CHECK_FALSE(flap_status(two, nullptr, t0 + 1300, settings).flapping);
  const auto three = downs_at(t0, {t0 + 600, t0 + 1200, t0 + 1800});
  const FlapStatus s = flap_status(three, nullptr, t0 + 1900, settings);
  CHECK(s.flapping);
  CHECK(s.downs == 3);
  CHECK(s.first == t0 + 600);
  CHECK(s.last == t0 + 1800);
  // Spread wider than the window: never three within it.
  const auto spread = downs_at(t0, {t0 + 600, t0 + 2400, t0 + 4300});
  CHECK_FALSE(flap_status(spread, nullptr, t0 + 4400, settings).flapping);
}

TEST_CASE("both ends count the same downs once") {
  FlapSettings settings;
  const double t0 = 1e6;
  const auto a = downs_at(t0, {t0 + 600, t0 + 1200});
  const auto b = downs_at(t0, {t0 + 600.2, t0 + 1200.2});
  CHECK(flap_status(a, &b, t0 + 1300, settings).downs == 2);
  CHECK_FALSE(flap_status(a, &b, t0 + 1300, settings).flapping);
}

TEST_CASE("a flap is held until the cable has been clean for the recovery period") {
  FlapSettings settings;
  settings.window = 120;
  settings.recovery = 25;
  const double t0 = 1e6;
  const auto h = downs_at(t0, {t0 + 10, t0 + 12, t0 + 14});
  CHECK(flap_status(h, nullptr, t0 + 15, settings).flapping);
  CHECK(flap_status(h, nullptr, t0 + 38, settings).flapping);        // 24 s clean
  CHECK_FALSE(flap_status(h, nullptr, t0 + 40, settings).flapping);  // 26 s clean
}

TEST_CASE("the long output says how often, when, and how long it is held") {
  FlapSettings settings;
  FlapStatus s{true, 3, 1700000467, 1700000985};
  CHECK(describe(s, settings) ==
        "flapping: went down 3 times in 60 min, from 22:21:07 to 22:29:45 UTC (held until clean "
        "for 60 min)");
}
