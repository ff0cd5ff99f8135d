// SPDX-License-Identifier: MIT

#include <catch2/catch.hpp>

#include "history/window_coverage.hpp"

using namespace ibpm::history;

namespace {

PortHistory port(std::time_t covered, std::time_t step = 60) {
  PortHistory h;
  h.found = covered > 0;
  h.covered = covered;
  h.step = step;
  return h;
}

}  // namespace

TEST_CASE("a window without any rate says so, with the RRD step, instead of zero") {
  WindowCoverage coverage(Window{1000, 1600});
  coverage.add(port(0));
  coverage.add(port(0));
  CHECK(coverage.none());
  CHECK(coverage.ports_read == 2);
  CHECK(describe_coverage(coverage) ==
        "no history in the last 10 min yet (a rate needs two samples one RRD step apart; RRD "
        "step 60 s)");
}

TEST_CASE("no file read at all: no step to name") {
  const WindowCoverage coverage(Window{0, 30});
  CHECK(describe_coverage(coverage) ==
        "no history in the last 30 s yet (a rate needs two samples one RRD step apart)");
}

TEST_CASE("the best-covered port tells how much of the window has history") {
  WindowCoverage coverage(Window{0, 3600});
  coverage.add(port(5 * 60));
  coverage.add(port(14 * 60));
  coverage.add(port(0));
  CHECK(coverage.ports_with_history == 2);
  CHECK(coverage.covered == 14 * 60);
  CHECK(describe_coverage(coverage) == "history for 14 min of the last 60 min (RRD step 60 s)");
}

TEST_CASE("a window covered but for its last, unfinished step counts as covered") {
  WindowCoverage coverage(Window{0, 6 * 3600});
  coverage.add(port(6 * 3600 - 60));
  CHECK(describe_coverage(coverage) == "history for all of the last 6 h (RRD step 60 s)");
  WindowCoverage days(Window{0, 3 * 86400 + 7200});
  days.add(port(86400 + 3600, 3600));
  CHECK(describe_coverage(days) == "history for 25 h of the last 3 d 2 h (RRD step 60 min)");
}

TEST_CASE("ports the store could not give are said, and none read at all is no 'yet'") {
  WindowCoverage partial(Window{0, 3600});
  partial.add(port(3600));
  partial.add_unreadable("rrdcached at 127.0.0.1:42217: did not answer within 5.0 s");
  CHECK_FALSE(partial.unreadable());
  CHECK(describe_coverage(partial) ==
        "history for all of the last 60 min (RRD step 60 s); 1 port could not be read: rrdcached "
        "at 127.0.0.1:42217: did not answer within 5.0 s");

  WindowCoverage none(Window{0, 3600});
  none.add_unreadable("/state/0x1/port1.rrd: cannot read its history: not an RRD");
  none.add_unreadable("/state/0x1/port2.rrd: cannot read its history: not an RRD");
  CHECK(none.unreadable());
  CHECK(describe_coverage(none) ==
        "no history in the last 60 min could be read: 2 ports failed, the first: "
        "/state/0x1/port1.rrd: cannot read its history: not an RRD");

  WindowCoverage nothing_yet(Window{0, 3600});
  nothing_yet.add(port(0));
  CHECK_FALSE(nothing_yet.unreadable());
}
