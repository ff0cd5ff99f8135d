// SPDX-License-Identifier: MIT
// The Monitoring Plugins text and the JSON of one constructed check tree: states set and
// inherited, nested subchecks, perfdata with units, ranges and bounds, and untrusted text.
#include <catch2/catch.hpp>

#include "plugin/range.hpp"
#include "plugin/render.hpp"
#include "support/golden.hpp"

using namespace ibpm::plugin;

namespace {

Check example_check() {
  Check check;
  check.summary = "2 ports in error, 1 unreachable";
  check.perfdata = {
      {"ports", 5, "", {}, {}, 0.0, {}},
      {"ports_error", 2, "", parse_range("1"), parse_range("3"), 0.0, 5.0},
  };
  Subcheck port;
  port.output = "leaf01[4] <-> spine01[1]";
  port.children = {
      {State::critical,
       "symbol_errors 3600/h > 100/h",
       {},
       {{"symbol_errors", 1.0, "", parse_range("0.0028"), parse_range("0.028"), 0.0, {}}}},
      {State::ok,
       "xmit_util 12.5 %",
       {},
       {{"xmit_util", 12.5, "%", parse_range("90"), {}, 0.0, 100.0}}},
  };
  Subcheck degraded{State::warning, "leaf01[2] <-> spine02[1] 1x HDR, expected 4x HDR", {}, {}};
  Subcheck redundant{State::warning,
                     "a redundant cable is down",
                     {{State::critical, "spine03[9] Down", {}, {}}},
                     {}};
  Subcheck hostile{State::unknown, "leaf02 \"name|with a pipe\"\nand a second line", {}, {}};
  Subcheck timing{State::ok,
                  "sweep 0.250 s (polling and state 0.125 s)",
                  {},
                  {{"time", 0.25, "s", {}, {}, 0.0, {}}}};
  check.subchecks = {port, degraded, redundant, hostile, timing};
  return check;
}

}  // namespace

TEST_CASE("golden: a check tree in Monitoring Plugins text") {
  ibpm::test::check_golden("plugin-output.txt", render_text(example_check(), "IB EXAMPLE"));
}

TEST_CASE("golden: a check tree in JSON") {
  ibpm::test::check_golden("plugin-output.json", render_json(example_check(), "IB EXAMPLE"));
}
