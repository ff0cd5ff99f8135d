// SPDX-License-Identifier: MIT

#include "dump/ibnetdiscover_parser.hpp"

#include <catch2/catch.hpp>

#include "fixtures.hpp"
#include "sample_dumps.hpp"

using namespace ibpm;
using namespace ibpm::dump;
using namespace ibpm::test;

namespace {

constexpr Guid kSw1 = 0xe41d2d030003e470;
constexpr Guid kSw2 = 0xf4521403005764b0;
constexpr Guid kCa = 0xe41d2d030061f957;

const Port& port(const Fabric& f, Guid node, PortNumber p) {
  const Port* port = f.find_port({node, p});
  REQUIRE(port);
  return *port;
}

}  // namespace

TEST_CASE("standard dump: nodes / ports and links", "[dump][parser]") {
  ParsedDump d = parse_text(kSample);
  const Fabric& f = d.fabric;
  CHECK(d.warnings.empty());
  CHECK(f.count(NodeType::sw) == 2);
  CHECK(f.count(NodeType::ca) == 1);
  CHECK(f.links().size() == 4);  // self-loop, two parallel cables, one CA cable

  const Node& sw1 = f.node(kSw1);
  CHECK(sw1.type == NodeType::sw);
  CHECK(sw1.description == "SwitchIB Mellanox Technologies ");  // trailing space kept
  CHECK(sw1.vendor_id == 0x2c9);
  CHECK(sw1.device_id == 0xcb20);
  CHECK(sw1.system_image_guid == 0xe41d2d030003e470);
  CHECK(sw1.port_count == 36);
  CHECK(port(f, kSw1, 0).lid == Lid{268});
  CHECK(port(f, kSw1, 0).lmc == 0);
  // Switch ports carry the port GUID printed after switchguid=.
  CHECK(port(f, kSw1, 0).guid == Guid{0xe41d2d030003e471});
  CHECK(port(f, kSw1, 3).guid == Guid{0xe41d2d030003e471});
  CHECK_FALSE(port(f, kSw1, 3).lid);

  // Self-loop and parallel links.
  CHECK(f.remote({kSw1, 1}) == PortRef{kSw1, 2});
  CHECK(f.remote({kSw1, 3}) == PortRef{kSw2, 1});
  CHECK(f.remote({kSw1, 4}) == PortRef{kSw2, 2});
  CHECK(port(f, kSw1, 3).width == LinkWidth::x4);
  CHECK(port(f, kSw1, 3).speed == LinkSpeed::fdr);
  CHECK(port(f, kSw1, 4).speed == LinkSpeed::fdr10);
  CHECK(port(f, kSw1, 4).state == PortState::active);

  CHECK(port(f, kSw2, 0).lid == Lid{174});
  CHECK(port(f, kSw2, 0).lmc == 1);

  const Node& ca = f.node(kCa);
  CHECK(ca.type == NodeType::ca);
  CHECK(ca.description == "r-ufm216 HCA-2");
  CHECK(ca.port_count == 2);
  CHECK(ca.device_id == 0x1013);
  CHECK(ca.system_image_guid == 0xe41d2d030061f956);
  // "(guid)" after a CA port number is the port GUID, not the node GUID.
  CHECK(port(f, kCa, 1).guid == Guid{0xe41d2d030061f958});
  CHECK(port(f, kCa, 1).lid == Lid{2});
  CHECK(port(f, kCa, 1).width == LinkWidth::x4);
  CHECK(port(f, kCa, 1).speed == LinkSpeed::edr);
  CHECK(port(f, kCa, 1).state == PortState::active);
  CHECK(f.find_port({kCa, 2}) == nullptr);  // "Ca 2" with only port 1 cabled
  CHECK(f.remote({kSw1, 34}) == PortRef{kCa, 1});
  // Port tables stay numbered, also where a peer's reference came before the record.
  for (const Node& n : f.nodes())
    for (std::size_t i = 0; i < n.ports.size(); ++i) CHECK(n.ports[i].number == i);
}

TEST_CASE("layout variations give the same fabric", "[dump][parser]") {
  const Fabric reference = parse_text(kSample).fabric;
  auto same = [&](const std::string& text) {
    ParsedDump d = parse_text(text);
    CHECK(fabric_difference(reference, d.fabric, true) == "");
    return d;
  };
  SECTION("CRLF") { CHECK(same(replace_all(kSample, "\n", "\r\n")).warnings.empty()); }
  SECTION("lone CR") { CHECK(same(replace_all(kSample, "\n", "\r")).warnings.empty()); }
  SECTION("single spaces instead of tabs") { same(replace_all(kSample, "\t", " ")); }
  SECTION("tabs deleted") {
    // As in the PuTTY capture: 'Switch41 "S-..."# "..."' and '[1]"H-..."[1](...) # ...'.
    std::string text = replace_all(kSample, "\t\t#", "#");
    text = replace_all(text, "\t", "");
    CHECK(same(text).warnings.empty());
  }
  SECTION("no blank lines between records") { same(replace_all(kSample, "\n\n", "\n")); }
  SECTION("a single space as the separator line") { same(replace_all(kSample, "\n\n", "\n \n")); }
  SECTION("zero-padded vendid as ibdiagnet writes it") {
    same(replace_all(kSample, "vendid=0x2c9", "vendid=0x000002c9"));
  }
  SECTION("no final newline") { same(kSample.substr(0, kSample.size() - 1)); }
}

TEST_CASE("terminal captures: BOM / prompts / banners and stderr are skipped", "[dump][parser]") {
  const Fabric reference = parse_text(kSample).fabric;
  SECTION("BOM and shell prompt on line 1, CRLF") {
    ParsedDump d =
        parse_text("\xEF\xBB\xBF[root@pg-compute-ufm001.clovanap dgxa100]# ibnetdiscover \r\n" +
                   replace_all(kSample, "\n", "\r\n"));
    CHECK(fabric_difference(reference, d.fabric, true) == "");
    REQUIRE(d.warnings.size() == 1);
    CHECK(d.warnings[0].starts_with("t:1: skipped unrecognised line \"[root@pg-compute"));
  }
  SECTION("PuTTY banner, CR CR LF, and a CLI prompt after a lone CR") {
    ParsedDump d = parse_text(
        "=~=~=~=~=~=~=~=~=~=~=~= PuTTY log 2021.06.15 12:06:05 =~=~=~=~=~=~=~=~=~=~=~=\r\n\r\r\n" +
        replace_all(kSample, "\n", "\r\n") +
        "\rsat11-0101-0902-02ufm [ mgmt-ha-active ] (config) # ");
    CHECK(fabric_difference(reference, d.fabric, true) == "");
    REQUIRE(d.warnings.size() == 2);
    CHECK(d.warnings[0].starts_with("t:1: skipped unrecognised line \"=~=~"));
    CHECK(d.warnings[1].starts_with("t:33: skipped unrecognised line \"sat11-0101"));
  }
  SECTION("stderr line first") {
    ParsedDump d = parse_text(
        "src/query_smp.c:195; umad (DR path slid 0; dlid 0; 0,1,1,31 Attr 0x11:0) bad status 110; "
        "Connection timed out\n" +
        kSample);
    CHECK(fabric_difference(reference, d.fabric, true) == "");
    CHECK(has_warning(d, "t:1: skipped unrecognised line \"src/query_smp.c"));
  }
  SECTION("ibnetdiscover -g noise lines are skipped silently") {
    ParsedDump d =
        parse_text("\nChassis 1 (guid 0x8f104004121ca)\n\nNon-Chassis Nodes\n" + kSample);
    CHECK(d.warnings.empty());
  }
}

TEST_CASE("'#' and '\"' inside descriptions", "[dump][parser]") {
  ParsedDump d = parse_text(
      "switchguid=0x8f10500200b50(8f10500200b50)\n"
      "Switch\t36 \"S-0008f10500200b50\"\t\t# \"Voltaire 4036 - 36 QDR ports switch\" enhanced "
      "port 0 lid 9 lmc 0\n"
      "[1]\t\"S-0008f10500108c5c\"[15]\t\t# \"Voltaire 4036 # 4036-8C5C\" lid 16 4xQDR\n"
      "\n"
      "switchguid=0x8f10500108c5c(8f10500108c5c)\n"
      "Switch\t36 \"S-0008f10500108c5c\"\t\t# \"Voltaire 4036 # 4036-8C5C\" enhanced port 0 lid 16 "
      "lmc 0\n"
      "[15]\t\"S-0008f10500200b50\"[1]\t\t# \"Voltaire 4036 - 36 QDR ports switch\" lid 9 4xQDR\n"
      "\n"
      "caguid=0x1\n"
      "Ca\t1 \"H-0000000000000001\"\t\t# \"say \"hi\" # there\"\n");
  CHECK(d.warnings.empty());
  CHECK(d.fabric.node(0x0008f10500108c5c).description == "Voltaire 4036 # 4036-8C5C");
  CHECK(d.fabric.find_port({0x0008f10500108c5c, 0})->lid == Lid{16});
  CHECK(d.fabric.node(1).description == "say \"hi\" # there");
  CHECK(d.fabric.links().size() == 1);
}

TEST_CASE("ibdiagnet2.ibnetdiscover port labels", "[dump][parser]") {
  ParsedDump d = parse_text(
      "# This database file was automatically generated by IBDIAG\n"
      "vendid=0x000002c9\n"
      "devid=0xd2f2\n"
      "sysimgguid=0xfc6a1c030091cf00\n"
      "switchguid=0xfc6a1c030091cf00(fc6a1c030091cf00)\n"
      "Switch  65 \"S-fc6a1c030091cf00\"      # \"Quantum-2 Mellanox Technologies\" base port 0 "
      "lid 13 lmc 0\n"
      "[1](1/1/1) \"H-5c25730300e6706e\"[1](5c25730300e6706e)      # \"is-north-7-compute-1 "
      "mlx5_8\" lid 164 4xNDR\n"
      "[65](65) \"H-fc6a1c030091cf08\"[1](fc6a1c030091cf08)      # \"Mellanox Technologies "
      "Aggregation Node\" lid 14 4xNDR\n"
      "\n\n"
      "vendid=0x2c9\n"
      "devid=0x1021\n"
      "caguid=0x5c25730300e6706e\n"
      "Ca  1 \"H-5c25730300e6706e\"      # \"is-north-7-compute-1 mlx5_8\"\n"
      "[1](B184D0F0/0/0/1)(5c25730300e6706f) \"S-fc6a1c030091cf00\"[1] # lid 164 lmc 0 \"Quantum-2 "
      "Mellanox Technologies\" lid 13 4xNDR\n"
      "\n\n"
      "caguid=0xfc6a1c030091cf08\n"
      "Ca  1 \"H-fc6a1c030091cf08\"      # \"Mellanox Technologies Aggregation Node\"\n"
      "[1](1)(fc6a1c030091cf08) \"S-fc6a1c030091cf00\"[65] # lid 14 lmc 0 \"Quantum-2 Mellanox "
      "Technologies\" lid 13 4xNDR\n");
  CHECK(d.warnings.empty());
  const Fabric& f = d.fabric;
  CHECK(f.find_port({0xfc6a1c030091cf00, 1})->label == "1/1/1");
  CHECK(f.find_port({0xfc6a1c030091cf00, 65})->label == "65");
  const Port* ca = f.find_port({0x5c25730300e6706e, 1});
  CHECK(ca->label == "B184D0F0/0/0/1");
  CHECK(ca->guid == Guid{0x5c25730300e6706f});
  CHECK(ca->lid == Lid{164});
  CHECK(ca->speed == LinkSpeed::ndr);
  CHECK(f.find_port({0xfc6a1c030091cf08, 1})->label == "1");
  CHECK(f.node(0x5c25730300e6706e).vendor_id == 0x2c9);
  CHECK(f.links().size() == 2);
}

TEST_CASE("ibnetdiscover -f suffixes are accepted", "[dump][parser]") {
  ParsedDump d = parse_text(
      "switchguid=0x3048ffff5812fc(3048ffff5812fc)\n"
      "Switch\t8 \"S-003048ffff5812fc\"\t\t# \"sw2\" base port 0 lid 2 lmc 0\n"
      "[1]\t\"H-003048ffff9386f1\"[1](3048ffff9386f2) \t\t# \"gw201-1\" lid 21 4xQDR s=4 w=2 v=4\n"
      "\n"
      "caguid=0x3048ffff9386f1\n"
      "Ca\t2 \"H-003048ffff9386f1\"\t\t# \"gw201-1\"\n"
      "[1](3048ffff9386f2) \t\"S-003048ffff5812fc\"[1]\t\t# lid 21 lmc 0 \"sw2\" lid 2 4xQDR s=4 "
      "w=2 v=4\n");
  CHECK(d.warnings.empty());
  const Port* p = d.fabric.find_port({0x003048ffff5812fc, 1});
  CHECK(p->width == LinkWidth::x4);
  CHECK(p->speed == LinkSpeed::qdr);
}

TEST_CASE("bogus LIDs are kept absent with a warning", "[dump][parser]") {
  ParsedDump d = parse_text(
      "switchguid=0x4444444444444444(4444444444444444)\n"
      "Switch  37 \"S-4444444444444444\"         # \"sw4\" enhanced port 0 lid  lmc 0\n"
      "[1]     \"S-1111111111111111\"[2]         # \"sw1\" lid 61111 4xEDR\n"
      "[2]     \"H-0cccccccccccccc1\"[1](cccccccccccccc1)   # \"h1\" lid -4 4xEDR\n"
      "[3]     \"H-0cccccccccccccc2\"[1](cccccccccccccc2)   # \"h2\" lid 65535 4xEDR\n"
      "\n"
      "switchguid=0x1111111111111111(1111111111111111)\n"
      "Switch  37 \"S-1111111111111111\"         # \"sw1\" enhanced port 0 lid 65335 lmc 0\n"
      "[2]     \"S-4444444444444444\"[1]         # \"sw4\" lid 0 4xEDR\n"
      "\n"
      "caguid=0xcccccccccccccc1\n"
      "Ca      1 \"H-0cccccccccccccc1\"          # \"h1\"\n"
      "[1](cccccccccccccc1)    \"S-4444444444444444\"[2]   # lid 0 lmc 0 \"sw4\" lid 0 4xEDR\n"
      "\n"
      "caguid=0xcccccccccccccc2\n"
      "Ca      1 \"H-0cccccccccccccc2\"          # \"h2\"\n"
      "[1](cccccccccccccc2)    \"S-4444444444444444\"[3]   # lid 65535 lmc 0 \"sw4\" lid 0 "
      "4xEDR\n");
  const Fabric& f = d.fabric;
  CHECK_FALSE(f.find_port({0x4444444444444444, 0})->lid);
  CHECK_FALSE(f.find_port({0x1111111111111111, 0})->lid);
  CHECK_FALSE(f.find_port({0x0cccccccccccccc1, 1})->lid);
  CHECK_FALSE(f.find_port({0x0cccccccccccccc2, 1})->lid);
  CHECK(has_warning(d, "t:2: LID \"\" of S-4444444444444444[0] is not a unicast LID"));
  CHECK(has_warning(d, "t:8: LID \"65335\" of S-1111111111111111[0]"));
  CHECK(has_warning(d, "t:13: LID \"0\" of H-0cccccccccccccc1[1]"));
  CHECK(has_warning(d, "t:17: LID \"65535\" of H-0cccccccccccccc2[1]"));
  CHECK(d.warnings.size() == 4);  // peers' LIDs in trailers are not the peers' own records
  CHECK(f.links().size() == 3);
}

TEST_CASE("router records", "[dump][parser]") {
  ParsedDump d = parse_text(
      "switchguid=0x10(10)\n"
      "Switch\t8 \"S-0000000000000010\"\t\t# \"sw\" base port 0 lid 1 lmc 0\n"
      "[5]\t\"R-0000000000000020\"[1](21) \t\t# \"gateway rt\" lid 7 4xQDR\n"
      "\n"
      "vendid=0x2c9\n"
      "devid=0x1234\n"
      "rtguid=0x20\n"
      "Rt\t2 \"R-0000000000000020\"\t\t# \"gateway rt\"\n"
      "[1](21) \t\"S-0000000000000010\"[5]\t\t# lid 7 lmc 0 \"sw\" lid 1 4xQDR\n");
  CHECK(d.warnings.empty());
  CHECK(d.fabric.count(NodeType::router) == 1);
  const Node& rt = d.fabric.node(0x20);
  CHECK(rt.type == NodeType::router);
  CHECK(rt.port_count == 2);
  CHECK(rt.device_id == 0x1234);
  CHECK(d.fabric.find_port({0x20, 1})->guid == Guid{0x21});
  CHECK(d.fabric.find_port({0x20, 1})->lid == Lid{7});
}

TEST_CASE("a peer without a record of its own is created from the reference", "[dump][parser]") {
  ParsedDump d = parse_text(
      "switchguid=0x10(10)\n"
      "Switch\t8 \"S-0000000000000010\"\t\t# \"sw\" base port 0 lid 1 lmc 0\n"
      "[2]\t\"H-0000000000000030\"[2](32) \t\t# \"lonely host\" lid 9 4xHDR\n"
      "[3]\t\"S-0000000000000040\"[7]\t\t# \"other sw\" lid 4 4xHDR\n");
  const Fabric& f = d.fabric;
  REQUIRE(f.find(0x30));
  const Node& host = f.node(0x30);
  CHECK(host.type == NodeType::ca);
  CHECK(host.description == "lonely host");
  CHECK(host.port_count == 2);
  const Port* hp = f.find_port({0x30, 2});
  CHECK(hp->guid == Guid{0x32});
  CHECK(hp->lid == Lid{9});
  CHECK(hp->width == LinkWidth::x4);
  CHECK(hp->speed == LinkSpeed::hdr);
  const Node& other = f.node(0x40);
  CHECK(other.type == NodeType::sw);
  CHECK(f.find_port({0x40, 0})->lid == Lid{4});
  CHECK(f.find_port({0x40, 7})->guid == Guid{0x40});
  CHECK(has_warning(d, "t:3: H-0000000000000030 \"lonely host\" appears only as a peer"));
  CHECK(has_warning(d, "t:4: S-0000000000000040 \"other sw\" appears only as a peer"));
}

TEST_CASE("a record after a reference replaces what the reference guessed", "[dump][parser]") {
  ParsedDump d = parse_text(
      "switchguid=0x10(10)\n"
      "Switch\t8 \"S-0000000000000010\"\t\t# \"sw\" base port 0 lid 1 lmc 0\n"
      "[3]\t\"S-0000000000000040\"[7]\t\t# \"old name\" lid 4 4xHDR\n"
      "\n"
      "switchguid=0x40(41)\n"
      "Switch\t36 \"S-0000000000000040\"\t\t# \"new name\" base port 0 lid 0 lmc 0\n"
      "[7]\t\"S-0000000000000010\"[3]\t\t# \"sw\" lid 1 4xHDR\n");
  const Node& n = d.fabric.node(0x40);
  CHECK(n.description == "new name");
  CHECK(n.port_count == 36);
  CHECK_FALSE(d.fabric.find_port({0x40, 0})->lid);  // its own record says 0
  CHECK(d.fabric.find_port({0x40, 7})->guid == Guid{0x41});
  CHECK_FALSE(has_warning(d, "appears only as a peer"));
}

TEST_CASE("inconsistent cabling keeps the first cable and warns", "[dump][parser]") {
  ParsedDump d = parse_text(
      "switchguid=0x10(10)\n"
      "Switch\t8 \"S-0000000000000010\"\t\t# \"a\" base port 0 lid 1 lmc 0\n"
      "[1]\t\"S-0000000000000020\"[1]\t\t# \"b\" lid 2 4xHDR\n"
      "[2]\t\"S-0000000000000020\"[1]\t\t# \"b\" lid 2 4xHDR\n"
      "[3]\t\"S-0000000000000010\"[3]\t\t# \"a\" lid 1 4xHDR\n"
      "\n"
      "switchguid=0x20(20)\n"
      "Switch\t8 \"S-0000000000000020\"\t\t# \"b\" base port 0 lid 2 lmc 0\n"
      "[1]\t\"S-0000000000000010\"[1]\t\t# \"a\" lid 1 4xHDR\n"
      "[9]\t\"S-0000000000000010\"[4]\t\t# \"a\" lid 1 4xHDR\n");
  const Fabric& f = d.fabric;
  CHECK(f.links().size() == 2);
  CHECK(f.remote({0x10, 1}) == PortRef{0x20, 1});
  CHECK_FALSE(f.remote({0x10, 2}));
  CHECK(has_warning(d,
                    "t:4: cable S-0000000000000010[2] - S-0000000000000020[1] ignored: "
                    "S-0000000000000020[1] is already cabled to S-0000000000000010[1]"));
  CHECK(has_warning(d,
                    "t:5: cable S-0000000000000010[3] - S-0000000000000010[3] ignored: a port "
                    "cannot be cabled to itself"));
  CHECK(has_warning(d, "t:10: port 9 beyond the 8 ports of the record"));
}

TEST_CASE("a second record for the same node is merged with a warning", "[dump][parser]") {
  ParsedDump d = parse_text(
      "caguid=0x30\n"
      "Ca\t2 \"H-0000000000000030\"\t\t# \"h\"\n"
      "[1](30) \t\"S-0000000000000010\"[1]\t\t# lid 3 lmc 0 \"s\" lid 1 4xHDR\n"
      "caguid=0x30\n"
      "Ca\t2 \"H-0000000000000030\"\t\t# \"h again\"\n"
      "[2](31) \t\"S-0000000000000010\"[2]\t\t# lid 4 lmc 0 \"s\" lid 1 4xHDR\n");
  CHECK(d.fabric.nodes().size() == 2);
  CHECK(d.fabric.node(0x30).description == "h");
  CHECK(d.fabric.links().size() == 2);
  CHECK(has_warning(d, "t:5: second record for H-0000000000000030"));
}

TEST_CASE("warnings of one kind are capped and summarised", "[dump][parser]") {
  std::string text;
  for (int i = 0; i < 100; ++i) text += "junk line " + std::to_string(i) + "\n";
  ParsedDump d = parse_text(text + kSample);
  CHECK(d.warnings.size() == 26);
  CHECK(d.warnings.back() == "t: 75 more \"skipped line\" warnings not listed (100 in all)");
  CHECK(d.fabric.nodes().size() == 3);
}

TEST_CASE("an over-long line is skipped with a warning", "[dump][parser]") {
  // Appended, not concatenated: g++ 12 warns (-Warray-bounds) on a long temporary + literal.
  std::string text(200000, 'x');
  text += "\n";
  text += kSample;
  ParsedDump d = parse_text(text);
  CHECK(has_warning(d, "t:1: skipped a line longer than"));
  CHECK(d.fabric.nodes().size() == 3);
}

TEST_CASE("a self-loop to a port beyond the port table", "[dump][parser]") {
  // Connecting grows the node's port table while the other end is held (caught by ASan before).
  ParsedDump d = parse_text(
      "switchguid=0x10(10)\n"
      "Switch\t2 \"S-0000000000000010\"\t\t# \"sw\" base port 0 lid 1 lmc 0\n"
      "[1]\t\"S-0000000000000010\"[200]\t\t# \"sw\" lid 1 4xHDR\n");
  CHECK(d.fabric.remote({0x10, 1}) == PortRef{0x10, 200});
  CHECK(d.fabric.node(0x10).port_count == 200);
  CHECK(d.fabric.find_port({0x10, 200})->number == 200);
  CHECK(has_warning(d, "t:3: peer port S-0000000000000010[200] beyond its 2 ports"));
}

TEST_CASE("a peer guessed to be a switch whose record says CA", "[dump][parser]") {
  ParsedDump d = parse_text(
      "switchguid=0x10(10)\n"
      "Switch\t8 \"S-0000000000000010\"\t\t# \"sw\" base port 0 lid 1 lmc 0\n"
      "[1]\t\"S-0000000000000030\"[1]\t\t# \"h\" lid 3 4xHDR\n"
      "\n"
      "caguid=0x30\n"
      "Ca\t1 \"H-0000000000000030\"\t\t# \"h\"\n"
      "[1](31) \t\"S-0000000000000010\"[1]\t\t# lid 3 lmc 0 \"sw\" lid 1 4xHDR\n");
  const Node& n = d.fabric.node(0x30);
  CHECK(n.type == NodeType::ca);
  CHECK(d.fabric.find_port({0x30, 0}) == nullptr);
  CHECK(d.fabric.find_port({0x30, 1})->guid == Guid{0x31});
}
