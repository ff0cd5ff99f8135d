// SPDX-License-Identifier: MIT
// Bit error ratios: the Poisson bounds against exact values (solved from the Poisson sums), and
// the bits a link signals at every width and speed the counter table knows.
#include <catch2/catch.hpp>

#include "fabric/types.hpp"
#include "link_quality/bit_error_ratio.hpp"

using namespace ibpm;
using namespace ibpm::link_quality;

TEST_CASE("Poisson bounds at 95 % equal the exact one-sided bounds") {
  struct Known {
    double count, lower, upper;
  };
  // Solved from P(X >= k | lower) = 0.05 and P(X <= k | upper) = 0.05.
  const Known known[] = {{0, 0, 2.9957322736},
                         {1, 0.0512932944, 4.7438645184},
                         {3, 0.8176914472, 7.7536565279},
                         {10, 5.4254056971, 16.9622192357},
                         {100, 84.1392772183, 118.0792727821}};
  for (const Known& k : known) {
    const PoissonBounds b = poisson_bounds(k.count, 0.95);
    INFO("count " << k.count);
    CHECK(b.lower == Approx(k.lower).epsilon(1e-8).margin(1e-12));
    CHECK(b.upper == Approx(k.upper).epsilon(1e-8));
  }
}

TEST_CASE("a higher confidence widens the bounds") {
  const PoissonBounds at95 = poisson_bounds(5, 0.95);
  const PoissonBounds at99 = poisson_bounds(5, 0.99);
  CHECK(at99.lower < at95.lower);
  CHECK(at99.upper > at95.upper);
  CHECK(at95.lower < 5);
  CHECK(at95.upper > 5);
}

TEST_CASE("a bit error ratio divides the count and its bounds by the bits") {
  const BitErrorRatio ber = bit_error_ratio(3, 1e12, 0.95);
  CHECK(ber.ratio == Approx(3e-12));
  CHECK(ber.lower == Approx(0.8176914472e-12));
  CHECK(ber.upper == Approx(7.7536565279e-12));
  CHECK(format_ber(ber.ratio) == "3e-12");
  CHECK(format_ber(1.234e-13) == "1.2e-13");
  CHECK(format_ber(0) == "0");
}

TEST_CASE("the bits a link signals: lanes times the lane's line rate, at every width and speed") {
  const double lane[] = {2.5e9,      5e9,       10e9,      10.3125e9, 14.0625e9,
                         25.78125e9, 51.5625e9, 103.125e9, 206.25e9};
  const LinkSpeed speeds[] = {LinkSpeed::sdr,   LinkSpeed::ddr, LinkSpeed::qdr,
                              LinkSpeed::fdr10, LinkSpeed::fdr, LinkSpeed::edr,
                              LinkSpeed::hdr,   LinkSpeed::ndr, LinkSpeed::xdr};
  const std::pair<LinkWidth, int> widths[] = {{LinkWidth::x1, 1},
                                              {LinkWidth::x2, 2},
                                              {LinkWidth::x4, 4},
                                              {LinkWidth::x8, 8},
                                              {LinkWidth::x12, 12}};
  for (std::size_t s = 0; s < std::size(speeds); ++s)
    for (const auto& [width, lanes] : widths) {
      INFO(to_string(width) << " " << to_string(speeds[s]));
      CHECK(static_cast<double>(link_signalling_bps(width, speeds[s])) == lanes * lane[s]);
      // The data rate is the line rate less the encoding: never more.
      CHECK(link_capacity_bps(width, speeds[s]) < link_signalling_bps(width, speeds[s]));
    }
  // The same errors are an 82.5 times worse ratio on a 1x SDR link than on a 4x HDR one.
  CHECK(2 * link_signalling_bps(LinkWidth::x4, LinkSpeed::hdr) ==
        165 * link_signalling_bps(LinkWidth::x1, LinkSpeed::sdr));
}
