// SPDX-License-Identifier: MIT

#include <catch2/catch.hpp>
#include <sstream>

#include "dump/ibnetdiscover_parser.hpp"
#include "fixtures.hpp"
#include "sample_dumps.hpp"

using namespace ibpm;
using namespace ibpm::test;

namespace {

// The DumpError message for text, or "no error".
std::string error_of(const std::string& text) {
  try {
    parse_text(text);
  } catch (const dump::DumpError& e) {
    return e.what();
  }
  return "no error";
}

const std::string kHeader =
    "switchguid=0x10(10)\n"
    "Switch\t8 \"S-0000000000000010\"\t\t# \"sw\" base port 0 lid 1 lmc 0\n";

}  // namespace

TEST_CASE("malformed lines raise DumpError with origin and line", "[dump][parser][errors]") {
  CHECK(error_of(kHeader + "[x]\t\"H-0000000000000030\"[1](30) \t\t# \"h\" lid 9 4xHDR\n") ==
        "t:3: port number \"x\" is not a number");
  CHECK(error_of(kHeader + "[300]\t\"H-0000000000000030\"[1](30) \t\t# \"h\" lid 9 4xHDR\n") ==
        "t:3: port number 300 is more than 255");
  CHECK(error_of(kHeader + "[0]\t\"H-0000000000000030\"[1]\n") ==
        "t:3: port number is 0, which cannot be cabled");
  CHECK(error_of(kHeader + "[1]\t\"H-0000000000000030\"[1x]\n") ==
        "t:3: remote port number \"1x\" is not a number");
  CHECK(error_of(kHeader + "[1]\t\"H-0000000000000030\"\n") ==
        "t:3: remote node id is not followed by [port]");
  CHECK(error_of(kHeader + "[1]\t\"H-00000000000000zz\"[1]\n") ==
        "t:3: node id \"H-00000000000000zz\" has no readable GUID");
  CHECK(error_of(kHeader + "[1]\t\"H-0000000000000030\"[1](3x0) \t\t# \"h\"\n") ==
        "t:3: remote port GUID \"3x0\" is not hex");
  CHECK(error_of("\n\nSwitch\t36 \"S-not-a-guid\"\t\t# \"sw\" base port 0 lid 1 lmc 0\n") ==
        "t:3: node id \"S-not-a-guid\" has no readable GUID");
  CHECK(error_of("Switch\t36 \"S-1000000000000000000\"\t\t# \"sw\"\n") ==
        "t:1: node id \"S-1000000000000000000\" has no readable GUID");
  CHECK(error_of("Switch\t300 \"S-0000000000000010\"\t\t# \"sw\"\n") ==
        "t:1: port count \"300\" is not in 0..255");
  CHECK(error_of("vendid=0x2c9\n[1]\t\"H-0000000000000030\"[1]\n") ==
        "t:2: port line outside a node record");
  CHECK(error_of("#\nvendid=0xZZ\n") == "t:2: vendid= value \"0xZZ\" is not hex");
  CHECK(error_of(
            "caguid=0x30\nCa\t2 \"H-0000000000000030\"\t\t# \"h\"\n[1](nothex) \t\"S-1\"[1]\n") ==
        "t:3: port GUID \"nothex\" is not hex");
  // Errors come with the line number counted as grep does, also after CRLF and lone CR.
  CHECK(error_of("a\r\nb\rc\n" + kHeader + "[y] \"S-1\"[1]\n") ==
        "t:5: port number \"y\" is not a number");
}

TEST_CASE("parse_ibnetdiscover_file reports files it cannot open", "[dump][parser][errors]") {
  CHECK_THROWS_AS(dump::parse_ibnetdiscover_file("/nonexistent/dir/topo"), dump::DumpError);
  try {
    dump::parse_ibnetdiscover_file("/nonexistent/dir/topo");
  } catch (const dump::DumpError& e) {
    CHECK(std::string(e.what()).starts_with("/nonexistent/dir/topo:0: cannot open"));
  }
}

TEST_CASE("what may have lost nodes or cables is listed apart, a line cut short is an error",
          "[dump][parser][errors]") {
  CHECK(parse_text(kSample).incomplete.empty());
  const dump::ParsedDump zero =
      parse_text(replace_all(kSample, "e41d2d030061f957", "0000000000000000"));
  REQUIRE(!zero.incomplete.empty());  // as a peer, then its own record
  for (const auto& problem : zero.incomplete) CHECK_THAT(problem, Catch::Contains("is GUID 0"));
  const dump::ParsedDump one_sided = parse_text(kSample.substr(0, kSample.rfind("[1](e41d")));
  REQUIRE(!one_sided.incomplete.empty());
  CHECK_THAT(one_sided.incomplete[0], Catch::Contains("by the other end only"));
  // The last line, without a line end and without the link's width and speed, was cut.
  const std::string cut = kSample.substr(0, kSample.rfind("lid 268 4xEDR"));
  CHECK_THAT(error_of(cut), Catch::Contains("cut short"));
  // Without a line end but whole (edited files): read as it is.
  CHECK(error_of(kSample.substr(0, kSample.size() - 1)) == "no error");
}
