// SPDX-License-Identifier: MIT

#include <catch2/catch.hpp>
#include <charconv>
#include <string>
#include <vector>

#include "state/port_record.hpp"
#include "state/rrd_layout.hpp"

using namespace ibpm;
using namespace ibpm::state;
using namespace std::chrono_literals;

namespace {
std::vector<std::string> split(const std::string& line) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  for (std::size_t colon; (colon = line.find(':', start)) != std::string::npos; start = colon + 1)
    parts.push_back(line.substr(start, colon - start));
  parts.push_back(line.substr(start));
  return parts;
}
constexpr std::uint64_t kMax64 = ~std::uint64_t{0};
}  // namespace

TEST_CASE("the layout: counters as DERIVE then the gauges and archives from the step") {
  std::vector<std::string> defs = create_definitions(RrdLayout{});
  REQUIRE(defs.size() == kSourceCount + 6);
  CHECK(defs[0] == "DS:symbol_errors:DERIVE:900:0:U");
  CHECK(defs[source_index(counters::Counter::rcv_pkts)] == "DS:rcv_pkts:DERIVE:900:0:U");
  CHECK(defs[source_index(Gauge::sample_time)] == "DS:sample_time:GAUGE:900:U:U");
  CHECK(defs[source_index(Gauge::reset_mask)] == "DS:reset_mask:GAUGE:900:U:U");
  CHECK(defs[kSourceCount + 0] == "RRA:AVERAGE:0.5:1:1440");
  CHECK(defs[kSourceCount + 1] == "RRA:AVERAGE:0.5:60:672");
  CHECK(defs[kSourceCount + 2] == "RRA:AVERAGE:0.5:1440:365");
  CHECK(defs[kSourceCount + 5] == "RRA:MAX:0.5:1440:365");
  for (std::size_t i = 0; i < kSourceCount; ++i) CHECK(source_name(i).size() <= 19);

  std::vector<std::string> five = create_definitions(RrdLayout{300s, 600s});
  CHECK(five[0] == "DS:symbol_errors:DERIVE:600:0:U");
  CHECK(five[kSourceCount + 0] == "RRA:AVERAGE:0.5:1:288");
  CHECK(five[kSourceCount + 1] == "RRA:AVERAGE:0.5:12:672");

  // One-second steps (tests, demos) keep 1440 rows at full resolution, not a day's 86400.
  std::vector<std::string> second = create_definitions(RrdLayout{1s, 900s});
  CHECK(second[kSourceCount + 0] == "RRA:AVERAGE:0.5:1:1440");
  CHECK(second[kSourceCount + 1] == "RRA:AVERAGE:0.5:3600:672");
  CHECK(five[kSourceCount + 2] == "RRA:AVERAGE:0.5:288:365");

  CHECK_THROWS_AS(validate(RrdLayout{7s, 900s}), std::invalid_argument);
  CHECK_THROWS_AS(validate(RrdLayout{0s, 900s}), std::invalid_argument);
  CHECK_THROWS_AS(validate(RrdLayout{60s, 0s}), std::invalid_argument);
}

TEST_CASE("an update line: exact decimals and U for unread or saturated counters") {
  PortRecord r;
  r.time = 1700000000.1234;
  r.raw[source_index(counters::Counter::xmit_data)] = kMax64 - 1;
  r.raw[source_index(counters::Counter::rcv_data)] = 0;
  r.raw[source_index(counters::Counter::link_downed)] = 255;
  r.saturated = counters::counter_bit(counters::Counter::link_downed);
  r.extended = true;
  r.last_reset = 1699990000.5;
  r.reset_mask = 3;

  const std::vector<std::string> values = split(update_line(r));
  REQUIRE(values.size() == kSourceCount + 1);
  CHECK(values[0] == "1700000000.123");
  CHECK(values[1 + source_index(counters::Counter::xmit_data)] == "18446744073709551614");
  CHECK(values[1 + source_index(counters::Counter::rcv_data)] == "0");
  CHECK(values[1 + source_index(counters::Counter::link_downed)] == "U");    // saturated
  CHECK(values[1 + source_index(counters::Counter::symbol_errors)] == "U");  // not read
  CHECK(values[1 + source_index(Gauge::sample_time)] == "1700000000.123");
  CHECK(values[1 + source_index(Gauge::saturated)] == "4");
  CHECK(values[1 + source_index(Gauge::sample_flags)] == "1");
  CHECK(values[1 + source_index(Gauge::pma_cap_mask)] == "U");
  CHECK(values[1 + source_index(Gauge::last_reset)] == "1699990000.500");
  CHECK(values[1 + source_index(Gauge::reset_mask)] == "3");

  r.time = 0;
  CHECK_THROWS_AS(update_line(r), std::invalid_argument);
  r.time = std::numeric_limits<double>::quiet_NaN();
  CHECK_THROWS_AS(update_line(r), std::invalid_argument);
}

TEST_CASE("last values read back exactly and a saturated counter as its maximum") {
  PortRecord r;
  r.time = 1700000000.125;
  r.raw[source_index(counters::Counter::xmit_data)] = kMax64 - 1;
  r.raw[source_index(counters::Counter::symbol_errors)] = 0;
  r.raw[source_index(counters::Counter::link_downed)] = counters::counter_max(8);
  r.raw[source_index(counters::Counter::rcv_pkts)] = kMax64;
  r.saturated = counters::counter_bit(counters::Counter::link_downed) |
                counter_bit(counters::Counter::rcv_pkts);
  r.extended = true;
  r.pma_cap_mask = 0x5600;

  const std::vector<std::string> values = split(update_line(r));
  std::array<std::string, kSourceCount> last;
  for (std::size_t i = 0; i < kSourceCount; ++i) last[i] = values[i + 1];
  CHECK(record_from_last_values(last) == r);

  // Without PortCountersExtended the packet counters are 32 bits wide.
  r.extended = false;
  r.raw[source_index(counters::Counter::rcv_pkts)] = counters::counter_max(32);
  last[source_index(Gauge::sample_flags)] = "0";
  CHECK(record_from_last_values(last) == r);

  last[source_index(counters::Counter::xmit_data)] = "1.8e19";
  CHECK_THROWS_WITH(record_from_last_values(last), Catch::Contains("xmit_data"));
  last[source_index(counters::Counter::xmit_data)] = "18446744073709551616";  // 2^64
  CHECK_THROWS_AS(record_from_last_values(last), std::invalid_argument);
}

TEST_CASE("widths in a sample: 64 bits for extended data and packet counters only") {
  CHECK(sample_width(counters::Counter::xmit_data, true, false) == 64);
  CHECK(sample_width(counters::Counter::rcv_pkts, true, false) == 64);
  CHECK(sample_width(counters::Counter::xmit_data, false, false) == 32);
  CHECK(sample_width(counters::Counter::xmit_wait, true, false) == 32);
  CHECK(sample_width(counters::Counter::symbol_errors, true, false) == 16);
}

TEST_CASE("widths in a sample read from PortCountersExtended alone: every counter 64 bits") {
  for (const counters::CounterSpec& s : counters::counter_specs()) {
    INFO(s.name);
    CHECK(sample_width(s.id, true, true) == 64);
  }
}

TEST_CASE("an all-64-bit sample: sample_flags 3, saturation at the 64-bit maximum, read back") {
  PortRecord r;
  r.time = 1700000000.25;
  r.raw[source_index(counters::Counter::symbol_errors)] = 70000;  // beyond 16 bits
  r.raw[source_index(counters::Counter::link_downed)] = kMax64;
  r.raw[source_index(counters::Counter::xmit_wait)] = 0x100000000ULL;
  r.raw[source_index(counters::Counter::xmit_data)] = kMax64 - 1;
  r.saturated = counters::counter_bit(counters::Counter::link_downed);
  r.extended = true;
  r.all_extended = true;
  r.pma_cap_mask = 0x80021200u;  // CapabilityMask 0x1200, CapabilityMask2 bit 1, recorded

  const std::vector<std::string> values = split(update_line(r));
  CHECK(values[1 + source_index(Gauge::sample_flags)] == "3");
  CHECK(values[1 + source_index(Gauge::pma_cap_mask)] == "2147619328");
  CHECK(values[1 + source_index(counters::Counter::symbol_errors)] == "70000");
  CHECK(values[1 + source_index(counters::Counter::link_downed)] == "U");
  std::array<std::string, kSourceCount> last;
  for (std::size_t i = 0; i < kSourceCount; ++i) last[i] = values[i + 1];
  CHECK(record_from_last_values(last) == r);

  // A file written before bit 1 existed reads as before: PortCounters widths for errors.
  last[source_index(Gauge::sample_flags)] = "1";
  const PortRecord old = record_from_last_values(last);
  CHECK(old.extended);
  CHECK_FALSE(old.all_extended);
  CHECK(old.raw[source_index(counters::Counter::link_downed)] == counters::counter_max(8));
  // Bit 1 without bit 0 is not a sample we write: not taken as all-64-bit.
  last[source_index(Gauge::sample_flags)] = "2";
  CHECK_FALSE(record_from_last_values(last).all_extended);
}

TEST_CASE("source_changed: the counters read from another attribute than in the previous sample") {
  PortRecord two_mads;  // PortCounters + PortCountersExtended's data counters
  two_mads.extended = true;
  PortRecord one_mad = two_mads;  // PortCountersExtended alone
  one_mad.all_extended = true;
  PortRecord no_extended;  // PortCounters alone

  CHECK(source_changed(two_mads, two_mads) == 0);
  CHECK(source_changed(one_mad, one_mad) == 0);
  CHECK(source_changed(no_extended, no_extended) == 0);
  const counters::CounterMask errors_and_wait =
      (counters::counter_bit(counters::Counter::xmit_wait) << 1) - 1;
  CHECK(source_changed(two_mads, one_mad) == errors_and_wait);
  CHECK(source_changed(one_mad, two_mads) == errors_and_wait);
  CHECK(source_changed(no_extended, two_mads) == counters::kDataCounterMask);
  CHECK(source_changed(one_mad, no_extended) == (errors_and_wait | counters::kDataCounterMask));
}

TEST_CASE("counters in rrd_unknown are written as U, read or not") {
  PortRecord r;
  r.time = 1700000000;
  for (auto raw : r.raw) raw = 5;
  r.rrd_unknown = counters::counter_bit(counters::Counter::symbol_errors) |
                  counters::counter_bit(counters::Counter::xmit_wait);
  const std::vector<std::string> values = split(update_line(r));
  CHECK(values[1 + source_index(counters::Counter::symbol_errors)] == "U");
  CHECK(values[1 + source_index(counters::Counter::xmit_wait)] == "U");
  CHECK(values[1 + source_index(counters::Counter::link_downed)] == "5");
  CHECK(values[1 + source_index(counters::Counter::xmit_data)] == "5");
  CHECK(values[1 + source_index(Gauge::saturated)] == "0");  // not saturated: not read back as max
}

TEST_CASE("an update line's times read as std::to_chars writes them with three decimals") {
  // The state's times are whole milliseconds (written without the general conversion); any
  // other time takes the general one: both must give the same text.
  std::vector<double> times = {0.001,
                               0.01,
                               0.1,
                               0.5,
                               0.999,
                               1,
                               1.5,
                               9.999,
                               10,
                               999.999,
                               1000,
                               1700000000.1234,
                               1700000000.0005,
                               1e-7,
                               123456789.9995,
                               4e15};
  for (long long ms : {1LL, 7LL, 99LL, 100LL, 1000LL, 1001LL, 1764281234123LL, 9007199254740LL})
    times.push_back(static_cast<double>(ms) / 1000);
  for (int k = 0; k < 2000; ++k)  // a spread of times around now, a millisecond apart or not
    times.push_back(1764281234.0 + k * 0.0007 + (k % 3 ? 0.0 : 1e-6));
  for (const double time : times) {
    PortRecord r;
    r.time = time;
    r.last_reset = time;
    char expected[64];
    const auto end =
        std::to_chars(expected, expected + sizeof expected, time, std::chars_format::fixed, 3).ptr;
    const std::vector<std::string> values = split(update_line(r));
    INFO(time);
    CHECK(values[0] == std::string(expected, end));
    CHECK(values[1 + source_index(Gauge::sample_time)] == values[0]);
    CHECK(values[1 + source_index(Gauge::last_reset)] == values[0]);
  }
}
