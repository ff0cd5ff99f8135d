// SPDX-License-Identifier: MIT

#include <algorithm>
#include <catch2/catch.hpp>
#include <limits>

#include "plugin/render.hpp"
#include "support/json_reader.hpp"

using namespace ibpm::plugin;
using ibpm::test::Json;
using ibpm::test::parse_json;

namespace {

Subcheck sub(std::optional<State> state, std::string output, std::vector<Subcheck> children = {}) {
  Subcheck s;
  s.state = state;
  s.output = std::move(output);
  s.children = std::move(children);
  return s;
}

Perfdata perfdata_item(std::string label, double value, std::string uom = "") {
  Perfdata p;
  p.label = std::move(label);
  p.value = value;
  p.uom = std::move(uom);
  return p;
}

// Two switches, one with an erroring port.
Check fabric_check() {
  Check check;
  check.perfdata.push_back(perfdata_item("links", 10));
  check.perfdata.back().min = 0;
  Subcheck sw1 = sub(std::nullopt, "switch sw1", {sub(State::ok, "port 1")});
  Subcheck sw2 = sub(std::nullopt, "switch sw2", {sub(State::critical, "port 7 symbol errors")});
  Perfdata errors = perfdata_item("port 7 errors", 3, "c");
  errors.warn = parse_range("5");
  errors.crit = parse_range("10");
  sw2.children[0].perfdata.push_back(errors);
  check.subchecks = {sw1, sw2};
  return check;
}

}  // namespace

TEST_CASE("effective state: worst of the subchecks unless set", "[plugin][result]") {
  Check check;
  CHECK(effective_state(check) == State::ok);

  check.subchecks = {sub(State::ok, "a"), sub(State::warning, "b")};
  CHECK(effective_state(check) == State::warning);
  check.subchecks = {sub(State::unknown, "a"), sub(State::warning, "b")};
  CHECK(effective_state(check) == State::warning);
  check.subchecks = {sub(State::unknown, "a"), sub(State::ok, "b")};
  CHECK(effective_state(check) == State::unknown);
  check.subchecks = {sub(State::critical, "a"), sub(State::unknown, "b")};
  CHECK(effective_state(check) == State::critical);

  SECTION("nested subchecks propagate upwards") {
    check.subchecks = {sub(std::nullopt, "sw", {sub(State::ok, "p1"), sub(State::critical, "p2")})};
    CHECK(effective_state(check.subchecks[0]) == State::critical);
    CHECK(effective_state(check) == State::critical);
    CHECK(effective_state(sub(std::nullopt, "empty")) == State::ok);
  }
  SECTION("an explicit state wins, also over worse children") {
    check.subchecks = {sub(State::warning, "redundant pair", {sub(State::critical, "link 1")})};
    CHECK(effective_state(check) == State::warning);
    check.state = State::ok;
    CHECK(effective_state(check) == State::ok);
  }
}

TEST_CASE("effective summary", "[plugin][result]") {
  Check check;
  CHECK(effective_summary(check) == "no checks");
  check.subchecks = {sub(State::ok, "a"), sub(State::critical, "b"), sub(State::unknown, "c"),
                     sub(State::ok, "d"), sub(State::warning, "e"),  sub(State::critical, "f")};
  CHECK(effective_summary(check) == "2 critical, 1 warning, 1 unknown, 2 ok");
  check.summary = "42 links";
  CHECK(effective_summary(check) == "42 links");
  CHECK(effective_summary(unknown_check("boom")) == "boom");
  CHECK(effective_state(unknown_check("boom")) == State::unknown);
}

TEST_CASE("collect_perfdata: the check's / then depth-first", "[plugin][result]") {
  const auto all = collect_perfdata(fabric_check());
  REQUIRE(all.size() == 2);
  CHECK(all[0].label == "links");
  CHECK(all[1].label == "port 7 errors");
}

TEST_CASE("render_text golden output", "[plugin][render]") {
  CHECK(render_text(fabric_check(), "IB TOPOLOGY") ==
        "IB TOPOLOGY CRITICAL - 1 critical, 1 ok | links=10;;;0 'port 7 errors'=3c;5;10\n"
        "\\_[OK] switch sw1\n"
        "  \\_[OK] port 1\n"
        "\\_[CRITICAL] switch sw2\n"
        "  \\_[CRITICAL] port 7 symbol errors\n");

  Check plain;
  plain.summary = "all 12 links up";
  CHECK(render_text(plain, "IB LINKS") == "IB LINKS OK - all 12 links up\n");
  CHECK(render_text(plain, "") == "OK - all 12 links up\n");
  CHECK(render_text(unknown_check("cannot open umad"), "IB X") ==
        "IB X UNKNOWN - cannot open umad\n");
}

TEST_CASE("render_text neutralises hostile strings", "[plugin][render]") {
  Check check;
  check.summary = "node a|b\nIB TOPOLOGY OK - forged | fake=1";
  Subcheck s = sub(State::warning, "desc <script>alert(\"x\")</script> | pipe\r\nsecond");
  s.perfdata.push_back(perfdata_item("node'x=1|y", 1));
  check.subchecks.push_back(s);

  const std::string out = render_text(check, "IB\nTOPOLOGY|");
  CHECK(out ==
        "IB TOPOLOGY/ WARNING - node a/b IB TOPOLOGY OK - forged / fake=1 | node_x_1_y=1\n"
        "\\_[WARNING] desc <script>alert(\"x\")</script> / pipe  second\n");
  const std::string first = out.substr(0, out.find('\n'));
  CHECK(std::count(first.begin(), first.end(), '|') == 1);
  CHECK(std::count(out.begin(), out.end(), '\n') == 2);
}

TEST_CASE("render_json golden output", "[plugin][render]") {
  Check check;
  check.summary = "1 link down";
  Subcheck s = sub(State::critical, "sw1/7 down");
  Perfdata p = perfdata_item("down", 1);
  p.crit = parse_range("~:0");
  p.min = 0;
  s.perfdata.push_back(p);
  check.subchecks.push_back(s);
  CHECK(
      render_json(check, "IB LINKS") ==
      "{\"prefix\":\"IB LINKS\",\"state\":\"CRITICAL\",\"exit_code\":2,\"summary\":\"1 link down\","
      "\"perfdata\":[],\"subchecks\":[{\"state\":\"CRITICAL\",\"output\":\"sw1/7 down\","
      "\"perfdata\":[{\"label\":\"down\",\"value\":1,\"uom\":\"\",\"warn\":null,\"crit\":\"~:0\","
      "\"min\":0,\"max\":null}],\"subchecks\":[]}]}\n");
  CHECK(render(check, "IB LINKS", OutputFormat::json) == render_json(check, "IB LINKS"));
  CHECK(render(check, "IB LINKS", OutputFormat::text) == render_text(check, "IB LINKS"));
}

TEST_CASE("render_json structure and hostile strings round-trip", "[plugin][render]") {
  const std::string hostile = "a|b\nc\t\"q\" \\ <script>alert(1)</script> \x01 gr\xC3\xBC\xC3\x9F";
  Check check = fabric_check();
  check.subchecks[1].output = hostile;
  check.perfdata.push_back(perfdata_item(hostile, std::numeric_limits<double>::quiet_NaN()));

  const std::string out = render_json(check, "IB TOPOLOGY");
  CHECK(std::count(out.begin(), out.end(), '\n') == 1);
  const Json json = parse_json(out);
  CHECK(json["prefix"].string == "IB TOPOLOGY");
  CHECK(json["state"].string == "CRITICAL");
  CHECK(json["exit_code"].number == 2);
  CHECK(json["summary"].string == "1 critical, 1 ok");
  REQUIRE(json["perfdata"].items.size() == 2);
  CHECK(json["perfdata"][0]["label"].string == "links");
  CHECK(json["perfdata"][0]["min"].number == 0);
  CHECK(json["perfdata"][0]["max"].kind == Json::Kind::null);
  CHECK(json["perfdata"][1]["label"].string == hostile);
  CHECK(json["perfdata"][1]["value"].kind == Json::Kind::null);

  const Json& subchecks = json["subchecks"];
  REQUIRE(subchecks.items.size() == 2);
  CHECK(subchecks[0]["state"].string == "OK");
  CHECK(subchecks[0]["output"].string == "switch sw1");
  CHECK(subchecks[0]["subchecks"][0]["output"].string == "port 1");
  CHECK(subchecks[1]["output"].string == hostile);
  CHECK(subchecks[1]["state"].string == "CRITICAL");
  const Json& port = subchecks[1]["subchecks"][0];
  CHECK(port["state"].string == "CRITICAL");
  CHECK(port["perfdata"][0]["label"].string == "port 7 errors");
  CHECK(port["perfdata"][0]["value"].number == 3);
  CHECK(port["perfdata"][0]["uom"].string == "c");
  CHECK(port["perfdata"][0]["warn"].string == "5");
  CHECK(port["perfdata"][0]["crit"].string == "10");
  CHECK(port["subchecks"].items.empty());
}
