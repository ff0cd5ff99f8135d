// SPDX-License-Identifier: MIT
// RareText: empty without a heap allocation, a copy of its own, and read and joined like a
// std::string.
#include <catch2/catch.hpp>
#include <string>

#include "base/rare_text.hpp"

using ibpm::base::RareText;

TEST_CASE("RareText is empty by default and after an empty string, one pointer wide") {
  RareText text;
  CHECK(text.empty());
  CHECK(text.str().empty());
  text = std::string();
  CHECK(text.empty());
  text = "no answer";
  CHECK_FALSE(text.empty());
  text = "";
  CHECK(text.empty());
  STATIC_REQUIRE(sizeof(RareText) == sizeof(void*));
}

TEST_CASE("RareText copies its text and reads like a string") {
  RareText original = std::string("PortCounters: no answer after 4 tries");
  RareText copy = original;
  original = "MAD status 0x000c";
  CHECK(copy.str() == "PortCounters: no answer after 4 tries");
  CHECK(original.str() == "MAD status 0x000c");
  RareText moved = std::move(copy);
  CHECK(moved.str() == "PortCounters: no answer after 4 tries");
  const std::string& as_string = moved;
  CHECK(as_string == moved.str());
  CHECK(moved == RareText("PortCounters: no answer after 4 tries"));
  CHECK_FALSE(moved == original);
}

TEST_CASE("RareText joins with strings on either side") {
  const RareText reason = "not an RRD file";
  CHECK("state: " + reason == "state: not an RRD file");
  CHECK(std::string("port7.rrd: ") + reason == "port7.rrd: not an RRD file");
  CHECK(reason + " (again)" == "not an RRD file (again)");
  CHECK(reason + std::string("!") == "not an RRD file!");
  CHECK("unreachable: " + RareText() == "unreachable: ");
}
