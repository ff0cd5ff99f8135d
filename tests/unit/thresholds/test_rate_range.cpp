// SPDX-License-Identifier: MIT

#include <catch2/catch.hpp>
#include <limits>
#include <stdexcept>

#include "thresholds/rate_range.hpp"

using namespace ibpm;
using namespace ibpm::thresholds;
using ibpm::plugin::Range;

namespace {
constexpr double kInf = std::numeric_limits<double>::infinity();
}

TEST_CASE("rate ranges: every range form with every unit", "[thresholds][rate_range]") {
  struct Form {
    const char* text;
    Range range;
  };
  const Form forms[] = {
      {"10", {0, 10, false}},           {"10:", {10, kInf, false}}, {"~:10", {-kInf, 10, false}},
      {"10:20", {10, 20, false}},       {"@10:20", {10, 20, true}}, {"0.5", {0, 0.5, false}},
      {"~:0.25", {-kInf, 0.25, false}},
  };
  struct Unit {
    const char* suffix;
    RateUnit unit;
  };
  const Unit units[] = {{"", RateUnit::per_second},
                        {"/s", RateUnit::per_second},
                        {"/min", RateUnit::per_minute},
                        {"/h", RateUnit::per_hour}};
  for (const Form& form : forms) {
    for (const Unit& unit : units) {
      const std::string text = std::string(form.text) + unit.suffix;
      INFO(text);
      const RateRange parsed = parse_rate_range(text);
      CHECK(parsed.range == form.range);
      CHECK(parsed.unit == unit.unit);
    }
  }
}

TEST_CASE("rate ranges: malformed text is an error naming all of it", "[thresholds][rate_range]") {
  CHECK_THROWS_WITH(parse_rate_range("10/d"),
                    "invalid rate threshold '10/d': unknown unit '/d' (use /s, /min or /h)");
  CHECK_THROWS_WITH(parse_rate_range("10/sec"), Catch::Contains("unknown unit '/sec'"));
  CHECK_THROWS_WITH(parse_rate_range("10/H"), Catch::Contains("unknown unit '/H'"));
  CHECK_THROWS_WITH(parse_rate_range("10/"), Catch::Contains("unknown unit '/'"));
  CHECK_THROWS_WITH(parse_rate_range("/h"),
                    "invalid rate threshold '/h': no range before the unit");
  CHECK_THROWS_WITH(parse_rate_range("10:5/h"),
                    "invalid range '10:5/h': start 10 is greater than end 5");
  CHECK_THROWS_WITH(parse_rate_range("abc/min"), "invalid range 'abc/min': 'abc' is not a number");
  CHECK_THROWS_WITH(parse_rate_range("10/h/h"), Catch::Contains("'10/h/h'"));
  CHECK_THROWS_WITH(parse_rate_range("90%"), Catch::Contains("'%' is only for percentages"));
  CHECK_THROWS_WITH(parse_rate_range(""), "invalid range '': empty");
  CHECK_THROWS_AS(parse_rate_range("10 /h"), std::invalid_argument);
  CHECK_THROWS_AS(parse_rate_range("inf/h"), std::invalid_argument);
}

TEST_CASE("percent ranges: plain or with % / never with a rate unit", "[thresholds][rate_range]") {
  CHECK(parse_percent_range("90") == RateRange{{0, 90, false}, RateUnit::per_second});
  CHECK(parse_percent_range("90%") == RateRange{{0, 90, false}, RateUnit::per_second});
  CHECK(parse_percent_range("@80:95%") == RateRange{{80, 95, true}, RateUnit::per_second});
  CHECK(parse_percent_range("~:0.5%").range == Range{-kInf, 0.5, false});
  CHECK_THROWS_WITH(parse_percent_range("90/s"),
                    "invalid percentage '90/s': a percentage takes no rate unit (/s, /min, /h)");
  CHECK_THROWS_WITH(parse_percent_range("90%/h"), Catch::Contains("no rate unit"));
  CHECK_THROWS_WITH(parse_percent_range("%"), "invalid percentage '%': no range before '%'");
  CHECK_THROWS_WITH(parse_percent_range("90%%"), Catch::Contains("invalid range '90%%'"));
  CHECK_THROWS_WITH(parse_percent_range("95:80%"),
                    "invalid range '95:80%': start 95 is greater than end 80");
}

TEST_CASE("rate ranges: to_string writes the unit and round-trips", "[thresholds][rate_range]") {
  CHECK(to_string(parse_rate_range("10/h")) == "10/h");
  CHECK(to_string(parse_rate_range("10")) == "10/s");
  CHECK(to_string(parse_rate_range("@1:5/min")) == "@1:5/min");
  CHECK(to_string(parse_rate_range("~:0.5/s")) == "~:0.5/s");
  CHECK(to_string(parse_rate_range("100:/h")) == "100:/h");
  CHECK(to_string(parse_rate_range("0:10/h")) == "10/h");  // shortest form
  CHECK(to_string(RateRange{{-kInf, kInf, false}, RateUnit::per_minute}) == "~:/min");
  for (const char* text : {"10/h", "10:/min", "~:10", "10:20/s", "@10:20/h", "@0.001:0.002/min",
                           "-5:-1/h", "~:/h", "1e3/min"}) {
    INFO(text);
    const RateRange parsed = parse_rate_range(text);
    CHECK(parse_rate_range(to_string(parsed)) == parsed);
  }
}

TEST_CASE("rate units: factors and conversion of a measured rate", "[thresholds][rate_range]") {
  CHECK(per_second_factor(RateUnit::per_second) == 1.0);
  CHECK(per_second_factor(RateUnit::per_minute) == Approx(1.0 / 60));
  CHECK(per_second_factor(RateUnit::per_hour) == Approx(1.0 / 3600));
  CHECK(unit_suffix(RateUnit::per_second) == "/s");
  CHECK(unit_suffix(RateUnit::per_minute) == "/min");
  CHECK(unit_suffix(RateUnit::per_hour) == "/h");
  CHECK(from_per_second(1, RateUnit::per_second) == 1);
  CHECK(from_per_second(1, RateUnit::per_minute) == 60);
  CHECK(from_per_second(1, RateUnit::per_hour) == 3600);
  CHECK(from_per_second(0.5, RateUnit::per_hour) == 1800);

  // 1/s is 3600/h: exactly at the end of 3600/h (inclusive), above 3599/h, below 3601/h.
  CHECK(alerts(parse_rate_range("3599/h"), 1.0));
  CHECK_FALSE(alerts(parse_rate_range("3600/h"), 1.0));
  CHECK_FALSE(alerts(parse_rate_range("3601/h"), 1.0));
  CHECK(alerts(parse_rate_range("59/min"), 1.0));
  CHECK_FALSE(alerts(parse_rate_range("61/min"), 1.0));
  CHECK(alerts(parse_rate_range("0.5"), 1.0));
  CHECK_FALSE(alerts(parse_rate_range("1/s"), 1.0));
  // Ten errors in an hour (10/3600 per second) against 10/h: not above, so no alert.
  CHECK_FALSE(alerts(parse_rate_range("9.5:10.5/h"), 10.0 / 3600));
  CHECK(alerts(parse_rate_range("9/h"), 10.0 / 3600));
  // Inside ranges are converted the same way.
  CHECK(alerts(parse_rate_range("@1:5/min"), 3.0 / 60));
  CHECK_FALSE(alerts(parse_rate_range("@1:5/min"), 6.0 / 60));
}

TEST_CASE("rate ranges: to_per_second divides both endpoints", "[thresholds][rate_range]") {
  CHECK(to_per_second(parse_rate_range("3600/h")) == Range{0, 1, false});
  CHECK(to_per_second(parse_rate_range("@60:120/min")) == Range{1, 2, true});
  CHECK(to_per_second(parse_rate_range("7200:/h")) == Range{2, kInf, false});
  CHECK(to_per_second(parse_rate_range("~:30/min")) == Range{-kInf, 0.5, false});
  CHECK(to_per_second(parse_rate_range("10:20/s")) == Range{10, 20, false});
  const Range hourly = to_per_second(parse_rate_range("10/h"));
  CHECK(hourly.start == 0);
  CHECK(hourly.end == Approx(10.0 / 3600));
  CHECK_FALSE(hourly.inside);
}
