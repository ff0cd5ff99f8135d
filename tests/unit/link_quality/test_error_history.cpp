// SPDX-License-Identifier: MIT
// A port's error history: intervals with errors kept for the longest window, counted in proportion
// at a window's edge, merged when there are too many, started again after a gap.
#include <catch2/catch.hpp>

#include "state/error_history.hpp"

using namespace ibpm::state;

TEST_CASE("errors are kept per interval and counted within a window") {
  ErrorHistory h;
  h = extend(h, true, 1000, 1060, {0, 0}, 7500);
  CHECK(h.since == 1000);      // the first interval starts the history
  CHECK(h.intervals.empty());  // a clean interval costs nothing
  h = extend(h, true, 1060, 1120, {60, 3}, 7500);
  h = extend(h, true, 1120, 1180, {0, 0}, 7500);
  REQUIRE(h.intervals.size() == 1);
  CHECK(errors_within(h, 0, 1000, 1180) == 60);
  CHECK(errors_within(h, 1, 1000, 1180) == 3);
  // Half of the interval inside: half of its errors (spread evenly over it).
  CHECK(errors_within(h, 0, 1090, 1180) == Approx(30));
  CHECK(errors_within(h, 0, 1120, 1180) == 0);
}

TEST_CASE("intervals older than the longest window are dropped, and the history's start follows") {
  ErrorHistory h;
  h = extend(h, true, 0 + 1e6, 60 + 1e6, {5, 0}, 600);
  h = extend(h, true, 60 + 1e6, 700 + 1e6, {1, 0}, 600);
  REQUIRE(h.intervals.size() == 1);
  CHECK(h.intervals[0].errors[0] == 1);
  CHECK(h.since == 100 + 1e6);  // 600 s before the last sample
}

TEST_CASE("a gap or a missing previous sample starts the history again") {
  ErrorHistory h;
  h = extend(h, true, 1000, 1060, {7, 0}, 7500);
  h = extend(h, false, 0, 5000, {0, 0}, 7500);
  CHECK(h.since == 5000);
  CHECK(h.intervals.empty());
}

TEST_CASE("beyond the maximum the oldest intervals merge, keeping every error") {
  ErrorHistory h;
  double t = 1e6;
  for (int i = 0; i < 100; ++i, t += 60) h = extend(h, true, t, t + 60, {1, 2}, 1e6);
  CHECK(h.intervals.size() <= kMaxErrorIntervals);
  CHECK(errors_within(h, 0, 0, t) == Approx(100));
  CHECK(errors_within(h, 1, 0, t) == Approx(200));
  // The newest intervals stay as they were.
  CHECK(h.intervals.back().seconds == 60);
  CHECK(h.intervals.back().errors[0] == 1);
}

TEST_CASE("intervals dated after now (a clock that stepped back) are dropped") {
  ErrorHistory h;
  h = extend(h, true, 1000, 1060, {7, 0, 0}, 7500);
  h = extend(h, true, 1060, 4660, {0, 0, 1}, 7500);  // dated an hour ahead
  REQUIRE(h.intervals.size() == 2);
  const ErrorHistory kept = drop_after(h, 1100);
  REQUIRE(kept.intervals.size() == 1);
  CHECK(kept.intervals[0].end == 1060);
  CHECK(kept.since == 1000);
  // A history that began after now has nothing that can be trusted.
  CHECK(drop_after(h, 900) == ErrorHistory{});
  CHECK(drop_after(h, 5000) == h);
}
