// SPDX-License-Identifier: MIT

#include <catch2/catch.hpp>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "counters/counter.hpp"
#include "thresholds/rate_thresholds.hpp"

using namespace ibpm;
using namespace ibpm::thresholds;
using ibpm::plugin::Range;
using ibpm::plugin::State;

namespace {
RateRange per_hour(double end) { return RateRange{Range{0, end, false}, RateUnit::per_hour}; }
RateRange percent(double end) { return RateRange{Range{0, end, false}, RateUnit::per_second}; }
}  // namespace

TEST_CASE("metrics: counter keys in table order / then the percentages and the BERs",
          "[thresholds]") {
  const std::vector<std::string> names = RateThresholds::metric_names();
  REQUIRE(names.size() == counters::kCounterCount + 5);
  for (std::size_t i = 0; i < counters::kCounterCount; ++i)
    CHECK(names[i] == counters::counter_specs()[i].key);
  CHECK(names[0] == "symbol_errors");
  CHECK(names[counters::kCounterCount - 1] == "rcv_pkts");
  CHECK(names[counters::kCounterCount] == "xmit_util");
  CHECK(names[counters::kCounterCount + 1] == "rcv_util");
  CHECK(names[counters::kCounterCount + 2] == "xmit_wait_pct");
  CHECK(names[counters::kCounterCount + 3] == "symbol_ber");
  CHECK(names[counters::kCounterCount + 4] == "rcv_errors_ber");
  CHECK(threshold_metrics()[counters::kCounterCount + 3].kind == MetricKind::ratio);

  for (const std::string& name : names) CHECK(RateThresholds::is_metric(name));
  for (const counters::CounterSpec& s : counters::counter_specs()) {
    INFO(s.name);
    CHECK(RateThresholds::is_metric(s.name));
    CHECK(metric_index(s.name) == metric_index(s.key));
    CHECK(metric_index(s.key) == metric_index(s.id));
  }
  CHECK(metric_index("xmit_util") == kXmitUtilIndex);
  CHECK(metric_index("rcv_util") == kRcvUtilIndex);
  CHECK(metric_index("xmit_wait_pct") == kXmitWaitPctIndex);
  // By place or by name, the same judgement and the same words.
  const RateThresholds defaults = RateThresholds::defaults();
  for (const std::string& name : names)
    for (const double value : {0.0, 0.5, 95.0, 1e6}) {
      INFO(name << " " << value);
      CHECK(defaults.evaluate(*metric_index(name), value) == defaults.evaluate(name, value));
      CHECK(defaults.describe(*metric_index(name)) == defaults.describe(name));
    }
  CHECK(threshold_metrics()[counters::kCounterCount].kind == MetricKind::percentage);
  CHECK(threshold_metrics()[0].kind == MetricKind::rate);
  CHECK_FALSE(RateThresholds::is_metric(""));
  CHECK_FALSE(RateThresholds::is_metric("nonsense"));
  CHECK_FALSE(RateThresholds::is_metric("symbolerrorcounter"));  // aliases are case-sensitive
  CHECK_FALSE(RateThresholds::is_metric("Symbol_Errors"));
  CHECK_FALSE(RateThresholds::is_metric("symbol_errors "));
}

TEST_CASE("defaults: the documented table", "[thresholds]") {
  const RateThresholds defaults = RateThresholds::defaults();
  struct Row {
    const char* metric;
    std::optional<RateRange> warning, critical;
  };
  const Row rows[] = {
      {"symbol_errors", per_hour(10), per_hour(100)},
      {"link_recovers", per_hour(1), per_hour(10)},
      {"rcv_errors", per_hour(10), per_hour(100)},
      {"rcv_remote_phys", per_hour(100), per_hour(1000)},
      {"rcv_switch_relay", per_hour(100), std::nullopt},
      {"xmit_discards", per_hour(100), per_hour(1000)},
      {"xmit_constraint", per_hour(100), std::nullopt},
      {"rcv_constraint", per_hour(100), std::nullopt},
      {"link_integrity", per_hour(1), per_hour(10)},
      {"buffer_overrun", per_hour(1), per_hour(10)},
      {"vl15_dropped", per_hour(100), std::nullopt},
      {"xmit_wait_pct", percent(10), percent(30)},
      {"xmit_util", percent(90), std::nullopt},
      {"rcv_util", percent(90), std::nullopt},
      {"symbol_ber", percent(1e-12), percent(1e-10)},
      {"rcv_errors_ber", percent(1e-12), percent(1e-10)},
  };
  for (const Row& row : rows) {
    INFO(row.metric);
    const MetricThreshold* found = defaults.find(row.metric);
    REQUIRE(found);
    CHECK(found->warning == row.warning);
    CHECK(found->critical == row.critical);
  }
  for (const char* metric :
       {"link_downed", "xmit_wait", "xmit_data", "rcv_data", "xmit_pkts", "rcv_pkts"}) {
    INFO(metric);
    CHECK(defaults.find(metric) == nullptr);
  }
  for (const std::string& metric : RateThresholds::metric_names())
    CHECK(RateThresholds::none().find(metric) == nullptr);
  CHECK(RateThresholds().find("symbol_errors") == nullptr);
}

TEST_CASE("set: by key or alias / '-' clears / errors leave things alone", "[thresholds]") {
  RateThresholds t = RateThresholds::none();
  t.set("SymbolErrorCounter", State::warning, "5/min");
  REQUIRE(t.find("symbol_errors"));
  CHECK(t.find("symbol_errors")->warning == RateRange{{0, 5, false}, RateUnit::per_minute});
  CHECK(t.find("SymbolErrorCounter") == t.find("symbol_errors"));
  CHECK_FALSE(t.find("symbol_errors")->critical);

  t.set("PortXmitDiscards", State::critical, "@1:2");
  CHECK(t.find("xmit_discards")->critical == RateRange{{1, 2, true}, RateUnit::per_second});

  t.set("symbol_errors", State::warning, "-");
  CHECK(t.find("symbol_errors") == nullptr);

  t.set("link_downed", State::critical, "1/h");
  CHECK_THROWS_WITH(t.set("nonsense", State::warning, "1"), "unknown metric 'nonsense'");
  CHECK_THROWS_WITH(t.set("linkdownedcounter", State::warning, "1"), Catch::Contains("unknown"));
  CHECK_THROWS_WITH(t.set("link_downed", State::critical, "5:1/h"),
                    "invalid range '5:1/h': start 5 is greater than end 1");
  CHECK_THROWS_WITH(t.set("link_downed", State::ok, "1/h"), Catch::Contains("warning or critical"));
  CHECK_THROWS_AS(t.set("link_downed", State::unknown, "1/h"), std::invalid_argument);
  CHECK(t.find("link_downed")->critical == per_hour(1));  // unchanged by the failures
  CHECK_FALSE(t.find("link_downed")->warning);
}

TEST_CASE("a BER threshold is a plain range, shown as the ratio is written", "[thresholds]") {
  RateThresholds t = RateThresholds::none();
  t.set("symbol_ber", State::warning, "1e-14");
  CHECK(t.find("symbol_ber")->warning == percent(1e-14));
  CHECK(t.describe("symbol_ber") == "warning 1e-14");
  CHECK(t.evaluate("symbol_ber", 2e-14) == State::warning);
  CHECK(t.evaluate("symbol_ber", 5e-15) == State::ok);
  CHECK_THROWS_WITH(t.set("symbol_ber", State::critical, "1e-12/h"),
                    Catch::Contains("plain range"));
  CHECK_THROWS_WITH(t.set("rcv_errors_ber", State::critical, "1e-12%"),
                    Catch::Contains("plain range"));
}

TEST_CASE("set: percentages with and without % / never a rate unit", "[thresholds]") {
  RateThresholds t;
  t.set("xmit_util", State::warning, "80");
  t.set("xmit_util", State::critical, "95%");
  t.set("rcv_util", State::warning, "@0:1%");
  CHECK(t.find("xmit_util")->warning == percent(80));
  CHECK(t.find("xmit_util")->critical == percent(95));
  CHECK(t.find("rcv_util")->warning == RateRange{{0, 1, true}, RateUnit::per_second});
  CHECK_THROWS_WITH(t.set("xmit_wait_pct", State::warning, "10/s"),
                    "xmit_wait_pct is a percentage: '10/s' cannot take a rate unit");
  CHECK_THROWS_WITH(t.set("xmit_util", State::critical, "95%/h"),
                    Catch::Contains("cannot take a rate unit"));
  CHECK(t.find("xmit_util")->critical == percent(95));
  CHECK(t.find("xmit_wait_pct") == nullptr);
  // and a rate metric takes no %
  CHECK_THROWS_WITH(t.set("xmit_wait", State::warning, "10%"),
                    Catch::Contains("only for percentages"));
}

TEST_CASE("evaluate: warning only / critical only / both / none", "[thresholds]") {
  RateThresholds t = RateThresholds::none();
  t.set("symbol_errors", State::warning, "10/h");
  t.set("link_downed", State::critical, "1/h");
  t.set("rcv_errors", State::warning, "10/h");
  t.set("rcv_errors", State::critical, "100/h");

  const double per_hour_rate = 1.0 / 3600;
  SECTION("warning only") {
    CHECK(t.evaluate("symbol_errors", 10 * per_hour_rate) == State::ok);
    CHECK(t.evaluate("symbol_errors", 11 * per_hour_rate) == State::warning);
    CHECK(t.evaluate("symbol_errors", 1e6) == State::warning);
    CHECK(t.evaluate("SymbolErrorCounter", 11 * per_hour_rate) == State::warning);
  }
  SECTION("critical only") {
    CHECK(t.evaluate("link_downed", 0) == State::ok);
    CHECK(t.evaluate("link_downed", 1 * per_hour_rate) == State::ok);
    CHECK(t.evaluate("link_downed", 2 * per_hour_rate) == State::critical);
  }
  SECTION("both") {
    CHECK(t.evaluate("rcv_errors", 5 * per_hour_rate) == State::ok);
    CHECK(t.evaluate("rcv_errors", 50 * per_hour_rate) == State::warning);
    CHECK(t.evaluate("rcv_errors", 101 * per_hour_rate) == State::critical);
  }
  SECTION("none") {
    CHECK(t.evaluate("xmit_data", 1e12) == State::ok);
    CHECK(t.evaluate("xmit_util", 100) == State::ok);
  }
  SECTION("not a metric") {
    CHECK_THROWS_WITH(t.evaluate("symbol_error", 1), "unknown metric 'symbol_error'");
    CHECK_THROWS_AS(t.describe("nope"), std::invalid_argument);
  }
  SECTION("NaN alerts a range that is set, not a missing one") {
    const double nan = std::numeric_limits<double>::quiet_NaN();
    CHECK(t.evaluate("symbol_errors", nan) == State::warning);
    CHECK(t.evaluate("rcv_errors", nan) == State::critical);
    CHECK(t.evaluate("xmit_pkts", nan) == State::ok);
  }
  SECTION("a saturated counter's lower bound is evaluated as given") {
    const counters::Rate bound{200 * per_hour_rate, true};
    CHECK(t.evaluate("rcv_errors", bound.per_second) == State::critical);
  }
}

TEST_CASE("evaluate: the rate is converted into each range's unit / 1/s is 3600/h",
          "[thresholds]") {
  RateThresholds t;
  t.set("symbol_errors", State::warning, "3599/h");
  CHECK(t.evaluate("symbol_errors", 1.0) == State::warning);
  t.set("symbol_errors", State::warning, "3601/h");
  CHECK(t.evaluate("symbol_errors", 1.0) == State::ok);
  t.set("symbol_errors", State::warning, "59/min");
  CHECK(t.evaluate("symbol_errors", 1.0) == State::warning);
  t.set("symbol_errors", State::warning, "61/min");
  CHECK(t.evaluate("symbol_errors", 1.0) == State::ok);
  t.set("symbol_errors", State::critical, "100:/s");  // alerts below 100 a second
  CHECK(t.evaluate("symbol_errors", 1.0) == State::critical);
  CHECK(t.evaluate("symbol_errors", 100.0) == State::warning);  // 6000/min: only the warning
  t.set("symbol_errors", State::warning, "-");
  CHECK(t.evaluate("symbol_errors", 100.0) == State::ok);
}

TEST_CASE("evaluate: percentages are compared as given", "[thresholds]") {
  const RateThresholds defaults = RateThresholds::defaults();
  CHECK(defaults.evaluate("xmit_wait_pct", 5) == State::ok);
  CHECK(defaults.evaluate("xmit_wait_pct", 10) == State::ok);
  CHECK(defaults.evaluate("xmit_wait_pct", 10.5) == State::warning);
  CHECK(defaults.evaluate("xmit_wait_pct", 31) == State::critical);
  CHECK(defaults.evaluate("xmit_util", 90) == State::ok);
  CHECK(defaults.evaluate("xmit_util", 91) == State::warning);
  CHECK(defaults.evaluate("rcv_util", 99) == State::warning);
  CHECK(defaults.evaluate("symbol_errors", 11.0 / 3600) == State::warning);
  CHECK(defaults.evaluate("symbol_errors", 101.0 / 3600) == State::critical);
}

TEST_CASE("describe: both / one / none / percentages", "[thresholds]") {
  const RateThresholds defaults = RateThresholds::defaults();
  CHECK(defaults.describe("symbol_errors") == "warning 10/h, critical 100/h");
  CHECK(defaults.describe("SymbolErrorCounter") == "warning 10/h, critical 100/h");
  CHECK(defaults.describe("vl15_dropped") == "warning 100/h");
  CHECK(defaults.describe("xmit_wait_pct") == "warning 10%, critical 30%");
  CHECK(defaults.describe("rcv_util") == "warning 90%");
  CHECK(defaults.describe("xmit_data") == "no thresholds");
  RateThresholds t;
  t.set("link_downed", State::critical, "@1:2/min");
  CHECK(t.describe("link_downed") == "critical @1:2/min");
  t.set("xmit_pkts", State::warning, "~:0.5");
  CHECK(t.describe("xmit_pkts") == "warning ~:0.5/s");
}
