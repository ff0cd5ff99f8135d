// SPDX-License-Identifier: MIT

#include "dump/ibnetdiscover_syntax.hpp"

#include <catch2/catch.hpp>

using namespace ibpm;
using namespace ibpm::dump::ibnd;

TEST_CASE("classify tells records from prompts and noise", "[dump][syntax]") {
  CHECK(classify("") == LineKind::blank);
  CHECK(classify("# Topology file") == LineKind::comment);
  CHECK(classify("vendid=0x2c9") == LineKind::attribute);
  CHECK(classify("switchguid=0x2c903007b78b0(2c903007b78b0)") == LineKind::attribute);
  CHECK(classify("Switch\t36 \"S-0002c903007b78b0\"\t\t# \"x\"") == LineKind::node_header);
  CHECK(classify("Switch41 \"S-0c42a10300a9b026\"# \"x\"") == LineKind::node_header);
  CHECK(classify("Ca  1 \"H-0c42a10300a57ad8\"# \"x\"") == LineKind::node_header);
  CHECK(classify("Rt\t2 \"R-0002c90000000001\"") == LineKind::node_header);
  CHECK(classify("[1]\t\"H-1\"[1]") == LineKind::port);
  CHECK(classify("[1]\"H-1c34da03005503dc\"[1](1c34da03005503dc) # \"x\"") == LineKind::port);
  CHECK(classify("[3](1/2/1) \"S-1\"[63]") == LineKind::port);
  CHECK(classify("[x] \"S-1\"[63]") == LineKind::port);  // malformed, but a port line
  CHECK(classify("Non-Chassis Nodes") == LineKind::noise);
  CHECK(classify("Chassis 1 (guid 0x8f104004121ca)") == LineKind::noise);
  // Junk that must never be taken for a record.
  CHECK(classify("[root@pg-compute-ufm001.clovanap dgxa100]# ibnetdiscover") == LineKind::junk);
  CHECK(classify("[1]+  Done                    ibnetdiscover > topo") == LineKind::junk);
  CHECK(classify("[1] 12345") == LineKind::junk);
  CHECK(classify("Cable 3 is loose") == LineKind::junk);
  CHECK(classify("Switch 1 is down") == LineKind::junk);
  CHECK(classify("src/query_smp.c:195; umad (DR path slid 0; dlid 0; 0,1,1,31 Attr 0x11:0)") ==
        LineKind::junk);
  CHECK(classify("sat11-0101-0902-02ufm [ mgmt-ha-active ] (config) #") == LineKind::junk);
}

TEST_CASE("node header fields", "[dump][syntax]") {
  NodeHeader h = parse_node_header(
      "Switch\t36 \"S-0008f10500200b50\"\t\t# \"Voltaire 4036 # 4036-8C5C\" enhanced port 0 lid 9 "
      "lmc 0");
  CHECK(h.type == NodeType::sw);
  CHECK(h.port_count == 36);
  CHECK(h.id.prefix == 'S');
  CHECK(h.id.guid == 0x0008f10500200b50);
  CHECK(h.description == "Voltaire 4036 # 4036-8C5C");
  LidLmc ll = find_lid_lmc(h.after_description);
  CHECK(ll.lid == "9");
  CHECK(ll.lmc == "0");

  LidLmc empty = find_lid_lmc(" enhanced port 0 lid  lmc 0");
  CHECK(empty.has_lid);
  CHECK(empty.lid.empty());
  CHECK(empty.lmc == "0");
}

TEST_CASE("port line fields", "[dump][syntax]") {
  PortLine p = parse_port_line(
      "[1](B184D0F0/0/0/1)(5c25730300c06f60) \"S-b0cf0e0300e5b940\"[1] # lid 156 lmc 0 "
      "\"Quantum-2 Mellanox Technologies\" lid 24 4xNDR");
  CHECK(p.port == 1);
  REQUIRE(p.groups == 2);
  CHECK(p.group[0] == "B184D0F0/0/0/1");
  CHECK(p.group[1] == "5c25730300c06f60");
  CHECK(p.remote.guid == 0xb0cf0e0300e5b940);
  CHECK(p.remote_port == 1);
  CHECK(find_lid_lmc(p.own).lid == "156");
  CHECK(p.remote_description == "Quantum-2 Mellanox Technologies");
  LinkTrailer t = parse_link_trailer(p.link);
  CHECK(t.lid == "24");
  CHECK(t.width_speed == "4xNDR");

  PortLine f = parse_port_line(
      "[1]\t\"H-003048ffff9386f1\"[1](3048ffff9386f2) \t\t# \"gw201-1\" lid 21 4xQDR s=4 w=2 v=4");
  CHECK(f.remote_port_guid == 0x3048ffff9386f2);
  CHECK(parse_link_trailer(f.link).width_speed == "4xQDR");

  PortLine g = parse_port_line("[3][ext 5]\t\"S-1\"[4][ext 2]\t\t# \"a\" lid 1 4xSDR");
  CHECK(g.ext == "5");
  CHECK(g.remote_port == 4);
}

TEST_CASE("malformed header and port lines raise SyntaxError", "[dump][syntax]") {
  CHECK_THROWS_AS(parse_port_line("[x] \"S-1\"[2]"), SyntaxError);
  CHECK_THROWS_AS(parse_port_line("[256] \"S-1\"[2]"), SyntaxError);
  CHECK_THROWS_AS(parse_port_line("[1] \"S-1\"[300]"), SyntaxError);
  CHECK_THROWS_AS(parse_port_line("[1] \"S-1\""), SyntaxError);
  CHECK_THROWS_AS(parse_port_line("[1] \"S-zz\"[1]"), SyntaxError);
  CHECK_THROWS_AS(parse_port_line("[1] \"S-1"), SyntaxError);
  CHECK_THROWS_AS(parse_port_line("[1] \"S-1\"[2](xyz)"), SyntaxError);
  CHECK_THROWS_AS(parse_port_line("[1](a)(b)(c) \"S-1\"[2]"), SyntaxError);
  CHECK_THROWS_AS(parse_node_header("Switch 36 \"S-nothex\""), SyntaxError);
  CHECK_THROWS_AS(parse_node_header("Switch 256 \"S-1\""), SyntaxError);
  CHECK_THROWS_AS(parse_node_header("Ca 2 \"X-1\""), SyntaxError);
  CHECK_THROWS_AS(parse_attribute("vendid=0xZZ"), SyntaxError);
  CHECK_THROWS_AS(parse_attribute("switchguid=0x1(zz)"), SyntaxError);
}
