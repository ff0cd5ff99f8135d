// SPDX-License-Identifier: MIT

#include <catch2/catch.hpp>
#include <limits>
#include <vector>

#include "plugin/perfdata.hpp"

using namespace ibpm::plugin;

namespace {

Perfdata item(std::string label, double value, std::string uom = "") {
  Perfdata p;
  p.label = std::move(label);
  p.value = value;
  p.uom = std::move(uom);
  return p;
}

}  // namespace

TEST_CASE("perfdata golden strings", "[plugin][perfdata]") {
  CHECK(format_perfdata(item("time", 0.25, "s")) == "time=0.25s");
  CHECK(format_perfdata(item("packets", 1234567, "c")) == "packets=1234567c");
  CHECK(format_perfdata(item("big", 1e15)) == "big=1000000000000000");
  CHECK(format_perfdata(item("tiny", 0.000001)) == "tiny=0.000001");
  CHECK(format_perfdata(item("zero", -0.0)) == "zero=0");
  CHECK(format_perfdata(item("sw-01.port_1", 1)) == "sw-01.port_1=1");

  Perfdata full = item("pct", 50, "%");
  full.warn = parse_range("80");
  full.crit = parse_range("90");
  full.min = 0;
  full.max = 100;
  CHECK(format_perfdata(full) == "pct=50%;80;90;0;100");

  Perfdata negative = item("neg", -3.5);
  negative.warn = parse_range("~:10");
  negative.crit = parse_range("@-5:-1");
  negative.min = -10;
  negative.max = 10;
  CHECK(format_perfdata(negative) == "neg=-3.5;~:10;@-5:-1;-10;10");

  SECTION("trailing empty fields are dropped, inner ones kept") {
    Perfdata load = item("load", 0.5);
    load.min = 0;
    CHECK(format_perfdata(load) == "load=0.5;;;0");
    Perfdata warn_only = item("x", 1);
    warn_only.warn = parse_range("10:");
    CHECK(format_perfdata(warn_only) == "x=1;10:");
    Perfdata crit_only = item("x", 1);
    crit_only.crit = parse_range("5");
    CHECK(format_perfdata(crit_only) == "x=1;;5");
    Perfdata infinite_max = item("x", 1);
    infinite_max.min = 0;
    infinite_max.max = std::numeric_limits<double>::infinity();
    CHECK(format_perfdata(infinite_max) == "x=1;;;0");
  }

  SECTION("an undetermined value is U") {
    Perfdata nan = item("nan", std::numeric_limits<double>::quiet_NaN(), "s");
    nan.warn = parse_range("10");
    CHECK(format_perfdata(nan) == "nan=U;10");
    CHECK(format_perfdata(item("inf", std::numeric_limits<double>::infinity())) == "inf=U");
  }

  SECTION("several items are separated by spaces") {
    const std::vector<Perfdata> items{item("a", 1), item("b c", 2, "B")};
    CHECK(format_perfdata(items) == "a=1 'b c'=2B");
    CHECK(format_perfdata(std::vector<Perfdata>{}).empty());
  }
}

TEST_CASE("perfdata labels are quoted when needed and sanitised", "[plugin][perfdata]") {
  CHECK(format_perfdata(item("links up", 3)) == "'links up'=3");
  CHECK(format_perfdata(item("sw01/port 1", 3)) == "'sw01/port 1'=3");
  CHECK(format_perfdata(item("it's=bad|x\n", 1)) == "it_s_bad_x_=1");
  CHECK(format_perfdata(item("tab\there", 1)) == "tab_here=1");
  CHECK(format_perfdata(item("", 1)) == "_=1");
  CHECK(format_perfdata(item("Schalter \xC3\xA4", 1)) == "'Schalter \xC3\xA4'=1");
  CHECK(format_perfdata(item("\xFF", 1)) == "'\xEF\xBF\xBD'=1");
  CHECK(format_perfdata(item("<script>", 1)) == "'<script>'=1");
  CHECK(sanitize_label("a'b=c|d\x7F") == "a_b_c_d_");
}

TEST_CASE("perfdata units", "[plugin][perfdata]") {
  for (const char* unit : {"", "s", "ms", "us", "%", "B", "KB", "MB", "TB", "c"}) {
    INFO(unit);
    CHECK(is_standard_uom(unit));
  }
  for (const char* unit : {"/s", "GB", "pkts", "S", "b"}) {
    INFO(unit);
    CHECK_FALSE(is_standard_uom(unit));
  }
  // A custom unit is written as given; characters that would break the syntax are dropped.
  CHECK(format_perfdata(item("r", 5, "/s")) == "r=5/s");
  CHECK(format_perfdata(item("r", 5, "1;x y'=|-.+\n")) == "r=5xy");
}
