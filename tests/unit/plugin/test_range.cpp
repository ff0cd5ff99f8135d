// SPDX-License-Identifier: MIT

#include <catch2/catch.hpp>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "plugin/range.hpp"

using namespace ibpm::plugin;

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

struct Row {
  const char* range;
  double value;
  bool alerts;
};

}  // namespace

TEST_CASE("parse_range reads every form of the guidelines table", "[plugin][range]") {
  CHECK(parse_range("10") == Range{0, 10, false});
  CHECK(parse_range("10:") == Range{10, kInf, false});
  CHECK(parse_range("~:10") == Range{-kInf, 10, false});
  CHECK(parse_range("10:20") == Range{10, 20, false});
  CHECK(parse_range("@10:20") == Range{10, 20, true});
  CHECK(parse_range("@10") == Range{0, 10, true});
  CHECK(parse_range("-5:-1") == Range{-5, -1, false});
  CHECK(parse_range("~:-0.5") == Range{-kInf, -0.5, false});
  CHECK(parse_range("1e3") == Range{0, 1000, false});
  CHECK(parse_range("1E3:2.5e3") == Range{1000, 2500, false});
  CHECK(parse_range("+5") == Range{0, 5, false});
  CHECK(parse_range(".5") == Range{0, 0.5, false});
  CHECK(parse_range("-.5:") == Range{-0.5, kInf, false});
  CHECK(parse_range("~:") == Range{-kInf, kInf, false});
  CHECK(parse_range("10:10") == Range{10, 10, false});
  CHECK(parse_range("4294967296.5") == Range{0, 4294967296.5, false});
}

TEST_CASE("Range::alerts follows the guidelines table / endpoints inclusive", "[plugin][range]") {
  const Row rows[] = {
      // 10: alert outside 0..10
      {"10", -1, true},
      {"10", -0.0001, true},
      {"10", 0, false},
      {"10", 5, false},
      {"10", 10, false},
      {"10", 10.0001, true},
      {"10", 11, true},
      // 10: alert below 10
      {"10:", 9.999, true},
      {"10:", 10, false},
      {"10:", 1e300, false},
      // ~:10 alert above 10
      {"~:10", -1e300, false},
      {"~:10", 10, false},
      {"~:10", 10.5, true},
      // 10:20 alert outside 10..20
      {"10:20", 9.99, true},
      {"10:20", 10, false},
      {"10:20", 15, false},
      {"10:20", 20, false},
      {"10:20", 20.01, true},
      // @10:20 alert inside 10..20
      {"@10:20", 9.99, false},
      {"@10:20", 10, true},
      {"@10:20", 15, true},
      {"@10:20", 20, true},
      {"@10:20", 20.01, false},
      // @10: inside 0..10
      {"@10", -1, false},
      {"@10", 0, true},
      {"@10", 10, true},
      {"@10", 11, false},
      // negative ranges
      {"-5:-1", -6, true},
      {"-5:-1", -5, false},
      {"-5:-1", -3, false},
      {"-5:-1", -1, false},
      {"-5:-1", -0.5, true},
      {"-5:-1", 0, true},
      {"@-5:-1", -3, true},
      {"@-5:-1", -5, true},
      {"@-5:-1", 0, false},
      {"~:-0.5", -1, false},
      {"~:-0.5", -0.5, false},
      {"~:-0.5", -0.4, true},
      {"~:-0.5", 0, true},
      {"-10:", -10, false},
      {"-10:", -10.5, true},
      // decimals and exponents
      {"1e3", 1000, false},
      {"1e3", 1000.5, true},
      {"1e3", -0.1, true},
      {"0.5:1.5", 0.4999, true},
      {"0.5:1.5", 0.5, false},
      {"0.5:1.5", 1.5, false},
      {"0.5:1.5", 1.5001, true},
      // doubles, not integers: no truncation of value or endpoint
      {"10", 10.5, true},
      {"10.5", 10.5, false},
      {"~:4294967296", 4294967296.5, true},
      {"~:4294967296", 4294967296, false},
      {"1e10", 9999999999.5, false},
      // degenerate ranges
      {"10:10", 10, false},
      {"10:10", 9.9, true},
      {"~:", -1e300, false},
      {"~:", 1e300, false},
      {"@~:", 0, true},
  };
  for (const Row& row : rows) {
    INFO("range " << row.range << ", value " << row.value);
    CHECK(parse_range(row.range).alerts(row.value) == row.alerts);
  }
}

TEST_CASE("NaN alerts under every range", "[plugin][range]") {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  CHECK(parse_range("10").alerts(nan));
  CHECK(parse_range("@10").alerts(nan));
  CHECK(parse_range("~:").alerts(nan));
}

TEST_CASE("parse_range rejects malformed ranges with a clear message", "[plugin][range]") {
  const char* bad[] = {"",      "@",    "abc", "10:5", "-5",     ":10",   "10::20", "1:2:3",
                       "~",     "10:~", "inf", "nan",  "-inf:0", "~:inf", "1e",     "1e999",
                       "0x10",  " 10",  "10 ", "+-5",  "--5",    "@@10",  "10:20x", "1,5",
                       "~:10:", "@:",   "-",   ".",    "+"};
  for (const char* text : bad) {
    INFO("'" << text << "'");
    CHECK_THROWS_AS(parse_range(text), std::invalid_argument);
  }

  auto message = [](const char* text) {
    try {
      parse_range(text);
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("no exception");
  };
  CHECK(message("10:5") == "invalid range '10:5': start 10 is greater than end 5");
  CHECK(message("-5") ==
        "invalid range '-5': start 0 is greater than end -5 (a single number N means 0:N)");
  CHECK(message("") == "invalid range '': empty");
  CHECK(message("abc") == "invalid range 'abc': 'abc' is not a number");
  CHECK(message("1e999") == "invalid range '1e999': '1e999' is out of range");
  CHECK(message(":10") ==
        "invalid range ':10': missing start before ':' (use ~ for negative infinity)");
}

TEST_CASE("to_string writes ranges back in guidelines syntax", "[plugin][range]") {
  const std::pair<const char*, const char*> cases[] = {
      {"10", "10"},
      {"10:", "10:"},
      {"~:10", "~:10"},
      {"10:20", "10:20"},
      {"@10:20", "@10:20"},
      {"-5:-1", "-5:-1"},
      {"~:-0.5", "~:-0.5"},
      {"1e3", "1000"},
      {"0:10", "10"},
      {"0:", "0:"},
      {"~:", "~:"},
      {"@~:", "@~:"},
      {"+5", "5"},
      {"0.5:1.5", "0.5:1.5"},
      {"@10", "@10"},
      {"-10:", "-10:"},
      {"1e15", "1000000000000000"},
      {"0", "0"},
  };
  for (const auto& [in, out] : cases) {
    INFO(in);
    const Range range = parse_range(in);
    CHECK(to_string(range) == out);
    CHECK(parse_range(to_string(range)) == range);
  }
}

TEST_CASE("Thresholds: CRITICAL before WARNING before OK", "[plugin][range]") {
  Thresholds t{parse_range("~:10"), parse_range("~:20")};
  CHECK(t.evaluate(5) == State::ok);
  CHECK(t.evaluate(10) == State::ok);
  CHECK(t.evaluate(10.5) == State::warning);
  CHECK(t.evaluate(20) == State::warning);
  CHECK(t.evaluate(20.000001) == State::critical);

  SECTION("negative ranges") {
    Thresholds n{parse_range("-10:-2"), parse_range("-20:0")};
    CHECK(n.evaluate(-5) == State::ok);
    CHECK(n.evaluate(-2) == State::ok);
    CHECK(n.evaluate(-1.5) == State::warning);
    CHECK(n.evaluate(-15) == State::warning);
    CHECK(n.evaluate(-20.5) == State::critical);
    CHECK(n.evaluate(0.1) == State::critical);
  }
  SECTION("missing ranges never alert") {
    CHECK(Thresholds{}.evaluate(-1e300) == State::ok);
    CHECK(Thresholds{std::nullopt, parse_range("5")}.evaluate(6) == State::critical);
    CHECK(Thresholds{std::nullopt, parse_range("5")}.evaluate(-1) == State::critical);
    CHECK(Thresholds{parse_range("5"), std::nullopt}.evaluate(6) == State::warning);
  }
  SECTION("a value that is not a number") {
    const double nan = std::numeric_limits<double>::quiet_NaN();
    CHECK(t.evaluate(nan) == State::critical);
    CHECK(Thresholds{}.evaluate(nan) == State::ok);
  }
}
