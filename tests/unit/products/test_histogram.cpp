// SPDX-License-Identifier: MIT
// rate_histograms, format_histograms, histograms_json: how a sweep's rates spread over its ports.
#include <algorithm>
#include <catch2/catch.hpp>
#include <vector>

#include "products/histogram.hpp"
#include "support/json_reader.hpp"
#include "support/port_results.hpp"

using namespace ibpm;
using namespace ibpm::products;
using namespace ibpm::test;

namespace {

const Histogram& find(const std::vector<Histogram>& histograms, const std::string& metric) {
  const auto it = std::find_if(histograms.begin(), histograms.end(),
                               [&](const Histogram& h) { return h.metric == metric; });
  REQUIRE(it != histograms.end());
  return *it;
}

struct Bin {
  double from, to;
  std::size_t count;
};

std::vector<Bin> bins_of(const Histogram& h) {
  std::vector<Bin> bins;
  for (const HistogramBin& b : h.bins) bins.push_back(Bin{b.from, b.to, b.count});
  return bins;
}

void check_bins(const Histogram& h, const std::vector<Bin>& expected) {
  const std::vector<Bin> actual = bins_of(h);
  REQUIRE(actual.size() == expected.size());
  for (std::size_t i = 0; i < expected.size(); ++i) {
    INFO("bin " << i);
    CHECK(actual[i].from == expected[i].from);
    CHECK(actual[i].to == expected[i].to);
    CHECK(actual[i].count == expected[i].count);
  }
}

}  // namespace

TEST_CASE("rate histograms have a zero bin and decade bins covering the values") {
  std::vector<poll::PortResult> sweep;
  for (PortNumber p = 1; p <= 5; ++p) sweep.push_back(quiet_port(p));
  sweep.push_back(with_rate(quiet_port(6), counters::Counter::symbol_errors, 3));
  sweep.push_back(with_rate(quiet_port(7), counters::Counter::symbol_errors, 9.99));
  sweep.push_back(
      with_rate(quiet_port(8), counters::Counter::symbol_errors, 10));  // edge: [10,100)
  sweep.push_back(
      with_rate(quiet_port(9), counters::Counter::symbol_errors, 1000));  // edge: [1000,1e4)
  sweep.push_back(with_rate(quiet_port(10), counters::Counter::symbol_errors, 0.05));

  const auto histograms = rate_histograms(sweep);
  const Histogram& h = find(histograms, "symbol_errors");
  CHECK(h.unit == "/s");
  CHECK(h.no_rate == 0);
  CHECK(h.lower_bounds == 0);
  CHECK(h.any_nonzero);
  check_bins(h, {{0, 0, 5},
                 {0.01, 0.1, 1},
                 {0.1, 1, 0},
                 {1, 10, 2},
                 {10, 100, 1},
                 {100, 1000, 0},
                 {1000, 10000, 1}});
}

TEST_CASE("a metric with only zero rates has just the zero bin") {
  const auto histograms = rate_histograms({quiet_port(1), quiet_port(2)});
  const Histogram& h = find(histograms, "link_downed");
  check_bins(h, {{0, 0, 2}});
  CHECK_FALSE(h.any_nonzero);
}

TEST_CASE("data rates are in octets per second as perfdata reports them") {
  // 250 words/s are 1000 octets/s: the [1000,10000) bin, not [100,1000).
  const auto histograms =
      rate_histograms({with_rate(quiet_port(1), counters::Counter::xmit_data, 250)});
  const Histogram& h = find(histograms, "xmit_data");
  CHECK(h.unit == "octets/s");
  check_bins(h, {{0, 0, 0}, {1000, 10000, 1}});
}

TEST_CASE("baseline and unanswered ports count as no rate") {
  std::vector<poll::PortResult> sweep{quiet_port(1), baseline_port(2), unanswered_port(3)};
  poll::PortResult no_counter = quiet_port(4);
  no_counter.rates.rate[at(counters::Counter::xmit_wait)].reset();  // the agent does not count it
  no_counter.rates.xmit_wait_pct.reset();
  sweep.push_back(no_counter);

  const auto histograms = rate_histograms(sweep);
  const Histogram& errors = find(histograms, "symbol_errors");
  CHECK(errors.no_rate == 2);
  check_bins(errors, {{0, 0, 2}});
  const Histogram& wait = find(histograms, "xmit_wait");
  CHECK(wait.no_rate == 3);
  check_bins(wait, {{0, 0, 1}});
  CHECK(find(histograms, "xmit_wait_pct").no_rate == 3);
  CHECK(find(histograms, "xmit_util").no_rate == 2);
}

TEST_CASE("saturated rates count in their bin and as lower bounds") {
  const auto histograms = rate_histograms({
      with_rate(quiet_port(1), counters::Counter::rcv_errors, 20, true),
      with_rate(quiet_port(2), counters::Counter::rcv_errors, 30),
      with_rate(quiet_port(3), counters::Counter::rcv_data, 1e9, true),
  });
  const Histogram& h = find(histograms, "rcv_errors");
  check_bins(h, {{0, 0, 1}, {10, 100, 2}});
  CHECK(h.lower_bounds == 1);
  // rcv_util comes from a saturated PortRcvData on port 3: a lower bound too.
  CHECK(find(histograms, "rcv_util").lower_bounds == 1);
  CHECK(find(histograms, "xmit_util").lower_bounds == 0);
}

TEST_CASE("percentages use ten 10 % bins with 100 % in the last") {
  std::vector<poll::PortResult> sweep;
  for (const double pct : {0.0, 9.99, 10.0, 55.0, 90.0, 100.0}) {
    poll::PortResult r = quiet_port(static_cast<PortNumber>(sweep.size() + 1));
    r.rates.xmit_util_pct = pct;
    sweep.push_back(r);
  }
  const auto histograms = rate_histograms(sweep);
  const Histogram& h = find(histograms, "xmit_util");
  CHECK(h.unit == "%");
  check_bins(h, {{0, 10, 2},
                 {10, 20, 1},
                 {20, 30, 0},
                 {30, 40, 0},
                 {40, 50, 0},
                 {50, 60, 1},
                 {60, 70, 0},
                 {70, 80, 0},
                 {80, 90, 0},
                 {90, 100, 2}});
}

TEST_CASE("the text lists bins with ports and leaves out all-zero metrics when asked") {
  std::vector<poll::PortResult> sweep{quiet_port(1), quiet_port(2), baseline_port(3)};
  sweep.push_back(with_rate(quiet_port(4), counters::Counter::symbol_errors, 3, true));
  sweep.push_back(with_rate(quiet_port(5), counters::Counter::symbol_errors, 12));
  poll::PortResult busy = quiet_port(6);
  busy.rates.xmit_util_pct = 100;
  sweep.push_back(busy);

  const auto histograms = rate_histograms(sweep);
  const std::string text = format_histograms(histograms, true);
  CHECK(text ==
        "symbol_errors /s: 0: 3 | [1,10): 1 | [10,100): 1; no rate: 1; lower bounds: 1\n"
        "xmit_util %: [0,10): 4 | [90,100]: 1; no rate: 1\n");

  const std::string all = format_histograms(histograms, false);
  CHECK(all.find("link_downed /s: 0: 5; no rate: 1\n") != std::string::npos);
  CHECK(std::count(all.begin(), all.end(), '\n') == 20);
}

TEST_CASE("the text writes large and small decade edges as powers of ten") {
  const auto histograms =
      rate_histograms({with_rate(quiet_port(1), counters::Counter::xmit_data, 2.5e9),
                       with_rate(quiet_port(2), counters::Counter::vl15_dropped, 0.0002)});
  const std::string text = format_histograms(histograms, true);
  CHECK(text.find("xmit_data octets/s: 0: 1 | [1e10,1e11): 1\n") != std::string::npos);
  CHECK(text.find("vl15_dropped /s: 0: 1 | [1e-4,0.001): 1\n") != std::string::npos);
}

TEST_CASE("a metric without values says so and nothing is printed when all is quiet") {
  const auto histograms = rate_histograms({baseline_port(1)});
  CHECK(format_histograms(histograms, false).find("symbol_errors /s: no values; no rate: 1\n") !=
        std::string::npos);
  CHECK(format_histograms(histograms, true).empty());
  CHECK(format_histograms(rate_histograms({quiet_port(1)}), true).empty());
}

TEST_CASE("the JSON holds every metric and every bin") {
  const auto histograms = rate_histograms({
      quiet_port(1),
      baseline_port(2),
      with_rate(quiet_port(3), counters::Counter::symbol_errors, 12, true),
  });
  const auto json = parse_json(histograms_json(histograms));
  REQUIRE(json.items.size() == 20);
  const auto& errors = json[0];
  CHECK(errors["metric"].string == "symbol_errors");
  CHECK(errors["unit"].string == "/s");
  CHECK(errors["no_rate"].number == 1);
  CHECK(errors["lower_bounds"].number == 1);
  const auto& bins = errors["bins"];
  REQUIRE(bins.items.size() == 2);
  CHECK(bins[0]["from"].number == 0);
  CHECK(bins[0]["to"].number == 0);
  CHECK(bins[0]["count"].number == 1);
  CHECK(bins[1]["from"].number == 10);
  CHECK(bins[1]["to"].number == 100);
  CHECK(bins[1]["count"].number == 1);

  const auto& wait = json[19];
  CHECK(wait["metric"].string == "xmit_wait_pct");
  CHECK(wait["unit"].string == "%");
  REQUIRE(wait["bins"].items.size() == 10);
  CHECK(wait["bins"][9]["from"].number == 90);
  CHECK(wait["bins"][9]["to"].number == 100);
  CHECK(wait["bins"][0]["count"].number == 2);
}

TEST_CASE("no ports give empty histograms") {
  const auto histograms = rate_histograms({});
  REQUIRE(histograms.size() == 20);
  check_bins(histograms[0], {{0, 0, 0}});
  CHECK(histograms[0].no_rate == 0);
  CHECK(parse_json(histograms_json(histograms)).items.size() == 20);
}
