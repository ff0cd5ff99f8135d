// SPDX-License-Identifier: MIT
// BER windows: the errors of the window over the bits the link signalled in it, judged only when
// the history covers the window.
#include <catch2/catch.hpp>

#include "link_quality/ber_windows.hpp"

using namespace ibpm;
using namespace ibpm::link_quality;

namespace {

state::ErrorHistory history_with(double since, double end, std::uint32_t symbol_errors) {
  state::ErrorHistory h;
  h.since = since;
  h.intervals.push_back({end, 60, {symbol_errors, 0}});
  return h;
}

}  // namespace

TEST_CASE("the ratio is the window's errors over the link's bits in the window") {
  BerSettings settings;  // 720 and 7500 s
  const double now = 1e6;
  const auto h = history_with(now - 8000, now - 100, 57);
  const auto windows = ber_windows(h, now, LinkWidth::x4, LinkSpeed::hdr, settings);
  REQUIRE(windows.size() == 4);  // symbol and rcv errors, two windows each
  const BerWindow& w = windows[0];
  CHECK(w.counter == counters::Counter::symbol_errors);
  CHECK(w.window == 720);
  CHECK(w.judged());
  CHECK(w.ber.errors == 57);
  CHECK(w.ber.bits == Approx(206.25e9 * 720));
  CHECK(w.ber.ratio == Approx(57 / (206.25e9 * 720)));
  CHECK(w.ber.lower < w.ber.ratio);
  CHECK(w.ber.upper > w.ber.ratio);
  CHECK(windows[1].window == 7500);
  CHECK(windows[1].ber.ratio == Approx(57 / (206.25e9 * 7500)));
  CHECK(windows[2].counter == counters::Counter::rcv_errors);
  CHECK(windows[2].ber.ratio == 0);
}

TEST_CASE("the same errors on a 1x link are four times the ratio of a 4x link") {
  BerSettings settings;
  const double now = 1e6;
  const auto h = history_with(now - 8000, now - 100, 57);
  const auto x4 = ber_windows(h, now, LinkWidth::x4, LinkSpeed::qdr, settings);
  const auto x1 = ber_windows(h, now, LinkWidth::x1, LinkSpeed::qdr, settings);
  CHECK(x1[0].ber.ratio == Approx(4 * x4[0].ber.ratio));
}

TEST_CASE("a window the history does not cover is not judged and says how much it has") {
  BerSettings settings;
  const double now = 1e6;
  const auto h = history_with(now - 14 * 60, now - 100, 5);
  const auto windows = ber_windows(h, now, LinkWidth::x4, LinkSpeed::edr, settings);
  CHECK(windows[0].judged());  // 12 min: covered
  CHECK_FALSE(windows[1].judged());
  CHECK(windows[1].covered == 14 * 60);
  CHECK(windows[1].ber.errors == 5);  // seen, not judged
  CHECK(describe_coverage(windows[1]) ==
        "symbol_ber over 125 min needs 125 min of samples, have 14 min");
  // No link rate (a port that is down): nothing to divide by.
  CHECK(ber_windows(h, now, std::nullopt, LinkSpeed::edr, settings).empty());
}

TEST_CASE("a window reads as an operator writes it") {
  CHECK(format_window(30) == "30 s");
  CHECK(format_window(720) == "12 min");
  CHECK(format_window(7500) == "125 min");
  CHECK(format_window(10800) == "3 h");
  CHECK(format_window(11100) == "3 h 5 min");
  const BerWindow w{counters::Counter::symbol_errors, 720, 720, bit_error_ratio(3, 1e12, 0.95)};
  CHECK(describe(w, 0.95) ==
        "symbol_ber 3e-12 over 12 min (3 errors in 1e+12 bits, 95 % bounds 8.2e-13..7.8e-12)");
}
