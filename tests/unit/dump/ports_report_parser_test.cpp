// SPDX-License-Identifier: MIT

#include "dump/ports_report_parser.hpp"

#include <catch2/catch.hpp>
#include <sstream>

#include "fixtures.hpp"

using namespace ibpm;
using namespace ibpm::dump;
using namespace ibpm::test;

namespace {

ParsedDump parse_report(const std::string& text) {
  std::istringstream in(text);
  return parse_ports_report(in, "p");
}

const std::string kOsc =
    "CA   134  1 0x7cfe9003003b4bde 4x EDR - SW  1719 10 0x7cfe9003009ce5b0 ( 'o0001 HCA-1' - "
    "'ib-i1l1s01' )\n"
    "CA   133  1 0x7cfe9003003b4b96 4x EDR - SW  1719 11 0x7cfe9003009ce5b0 ( 'o0002 HCA-1' - "
    "'ib-i1l1s01' )\n"
    "SW  1719 10 0x7cfe9003009ce5b0 4x EDR - CA   134  1 0x7cfe9003003b4bde ( 'ib-i1l1s01' - "
    "'o0001 HCA-1' )\n"
    "SW  1719  1 0x7cfe9003009ce5b0 4x EDR - SW  1516  1 0x7cfe900300b07320 ( 'ib-i1l1s01' - "
    "'ib-i1l2s01' )\n"
    "SW  2052 37 0x506b4b03005c2740 4x ???                                    'ib-i4l1s01'\n";

}  // namespace

TEST_CASE("ports report: nodes / links and unconnected ports", "[dump][ports_report]") {
  ParsedDump d = parse_report(kOsc);
  const Fabric& f = d.fabric;
  CHECK(d.warnings.empty());
  CHECK(f.count(NodeType::ca) == 2);
  CHECK(f.count(NodeType::sw) == 3);
  CHECK(f.links().size() == 3);  // the CA 134 cable appears from both ends

  const Node& sw = f.node(0x7cfe9003009ce5b0);
  CHECK(sw.description == "ib-i1l1s01");
  CHECK(f.find_port({sw.guid, 0})->lid == Lid{1719});
  const Port* p10 = f.find_port({sw.guid, 10});
  CHECK(p10->width == LinkWidth::x4);
  CHECK(p10->speed == LinkSpeed::edr);
  CHECK(p10->state == PortState::active);
  CHECK(f.remote({sw.guid, 10}) == PortRef{0x7cfe9003003b4bde, 1});

  const Node& ca = f.node(0x7cfe9003003b4bde);
  CHECK(ca.type == NodeType::ca);
  CHECK(ca.description == "o0001 HCA-1");
  CHECK(f.find_port({ca.guid, 1})->lid == Lid{134});

  // Known only as a peer: named from the peer's line.
  CHECK(f.node(0x7cfe900300b07320).description == "ib-i1l2s01");
  CHECK(f.find_port({0x7cfe900300b07320, 0})->lid == Lid{1516});

  const Port* down = f.find_port({0x506b4b03005c2740, 37});
  REQUIRE(down);
  CHECK(down->state == PortState::down);
  CHECK_FALSE(down->link);
  CHECK_FALSE(down->width);
  CHECK(f.node(0x506b4b03005c2740).description == "ib-i4l1s01");
}

TEST_CASE("ports report: names keep their blanks / conflicts warn", "[dump][ports_report]") {
  ParsedDump d = parse_report(
      "CA    78  1 0x946dae0300630bfe 4x HDR - SW    51 81 0x946dae0300630bf6 ( 'Mellanox "
      "Technologies Aggregation Node' - '5FB0405-leaf-IB01 ' )\n"
      "SW    25 1 0x946dae0300618c83 4x SDR                                    ' "
      "5FB0406-spine-IB02 '\n"
      "SW     9 81 0x946dae030053ec1a 4x HDR - CA    60  1 0x946dae0300630bfe ( ' "
      "5FB0406-spine-IB03 ' - 'Mellanox Technologies Aggregation Node' )\n");
  const Fabric& f = d.fabric;
  CHECK(f.node(0x946dae0300630bf6).description == "5FB0405-leaf-IB01 ");
  CHECK(f.node(0x946dae0300618c83).description == " 5FB0406-spine-IB02 ");
  CHECK(f.links().size() == 1);
  CHECK(has_warning(d, "p:3: cable"));
  CHECK(f.find_port({0x946dae0300630bfe, 1})->lid == Lid{78});  // its own line wins
}

TEST_CASE("ports report: malformed lines and junk", "[dump][ports_report]") {
  CHECK_THROWS_WITH(parse_report("CA 1 1 0x1z 4x EDR - SW 2 3 0x2 ( 'a' - 'b' )\n"),
                    "p:1: port GUID \"0x1z\" is not 0x-prefixed hex");
  CHECK_THROWS_WITH(parse_report("\nCA 1 1 0x1 4x EDR - XX 2 3 0x2 ( 'a' - 'b' )\n"),
                    "p:2: node type \"XX\" is not CA, SW or RT");
  CHECK_THROWS_WITH(parse_report("CA 1 1 0x1 4x EDR - SW 2 3 0x2 'a' - 'b'\n"),
                    "p:1: names are not in the form ( 'local' - 'remote' )");
  CHECK_THROWS_WITH(parse_report("SW 1 300 0x1 4x EDR 'a'\n"),
                    "p:1: port number \"300\" is not in 0..255");
  ParsedDump d = parse_report("$ ibnetdiscover -p\n" + kOsc);
  CHECK(has_warning(d, "p:1: skipped unrecognised line \"$ ibnetdiscover -p\""));
}

TEST_CASE("looks_like_ports_report tells the two formats apart", "[dump][ports_report]") {
  CHECK(
      looks_like_ports_report("CA   134  1 0x7cfe9003003b4bde 4x EDR - SW  1719 10 "
                              "0x7cfe9003009ce5b0 ( 'o0001 HCA-1' - 'ib-i1l1s01' )"));
  CHECK(looks_like_ports_report("SW    24 1 0x946dae0300618c82 4x SDR      '5FB0406-spine-IB01 '"));
  CHECK(looks_like_ports_report("RT     5  2 0x0002c90000000001 4x QDR    'rt'\r"));
  CHECK_FALSE(looks_like_ports_report("#"));
  CHECK_FALSE(looks_like_ports_report("vendid=0x2c9"));
  CHECK_FALSE(looks_like_ports_report(
      "Switch\t36 \"S-e41d2d030003e470\"\t\t# \"x\" base port 0 lid 2 lmc 0"));
  CHECK_FALSE(looks_like_ports_report("[1]\t\"H-1\"[1]"));
  CHECK_FALSE(looks_like_ports_report("CA is a node type"));
  CHECK_FALSE(looks_like_ports_report(""));
}
