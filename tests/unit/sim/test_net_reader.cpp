// SPDX-License-Identifier: MIT
// Net files read back: what to_ibsim_net writes comes back as the same cabling and settings,
// and the ibnetdiscover-style lines ibsim also takes are understood.
#include <catch2/catch.hpp>
#include <string>

#include "sim/degrade.hpp"
#include "sim/fat_tree.hpp"
#include "sim/net_file.hpp"
#include "sim/net_reader.hpp"

using namespace ibpm;
using namespace ibpm::sim;

namespace {

std::string net_reader_error(const std::string& text) {
  try {
    parse_ibsim_net(text);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "(no error)";
}

}  // namespace

TEST_CASE("A generated fat tree's net file reads back as the same topology") {
  FatTreeOptions options;
  options.hosts = 40;
  options.radix = 8;
  options.levels = 3;
  FatTree tree = make_fat_tree(options);
  degrade_link(tree.topology, *parse_degradation("leaf02[6]=1xEDR"));

  const NetTopology back = parse_ibsim_net(to_ibsim_net(tree.topology, "a comment\nof two lines"));
  REQUIRE(back.nodes().size() == tree.topology.nodes().size());
  REQUIRE(back.links().size() == tree.topology.links().size());
  for (std::size_t n = 0; n < back.nodes().size(); ++n) {
    const NetNode& a = tree.topology.node(n);
    const NetNode& b = back.node(n);
    CHECK(b.name == a.name);
    CHECK(b.type == a.type);
    CHECK(b.port_count == a.port_count);
    for (int p = 1; p <= a.port_count; ++p) {
      auto peer = tree.topology.peer({n, p});
      REQUIRE(back.peer({n, p}) == peer);
      if (peer) CHECK(back.setting({n, p}) == tree.topology.setting({n, p}));
    }
  }
  const auto leaf02 = *back.find_node("leaf02");
  CHECK(back.setting({leaf02, 6}) == PortSetting{LinkWidth::x1, LinkSpeed::edr});
}

TEST_CASE("Net files in ibnetdiscover style, and one-sided cables") {
  const NetTopology t = parse_ibsim_net(
      "vendid=0x2c9\n"
      "switchguid=0x8f10400411a08(8f10400411a08)\n"
      "Switch\t8 \"S-1\"\t\t# \"ISR9024 Voltaire\" base port 0 lid 6 lmc 0\n"
      "[1]\t\"H-1\"[1](8f10403960559)\t\t# \"node one\" lid 4 4xDDR\n"
      "[2]\t\"H-2\"[1]\n"
      "\n"
      "Ca\t2 \"H-1\"\t# \"node one\"\n"
      "[1](8f10403960559)\t\"S-1\"[1]\t\t# lid 4 lmc 0 \"ISR9024 Voltaire\" lid 6 4xDDR\n"
      "\n"
      "Hca 1 \"H-2\"\n");
  REQUIRE(t.nodes().size() == 3);
  CHECK(t.node(0).type == NodeType::sw);
  CHECK(t.node(1).type == NodeType::ca);
  CHECK(t.node(1).port_count == 2);
  REQUIRE(t.links().size() == 2);
  CHECK(t.port_name(*t.peer({0, 1})) == "H-1[1]");
  CHECK(t.port_name(*t.peer({2, 1})) == "S-1[2]");  // given by the switch only
  CHECK(t.setting({0, 1}) == PortSetting{LinkWidth::x4, LinkSpeed::ddr});
  CHECK(t.setting({0, 2}) == PortSetting{LinkWidth::x4, LinkSpeed::sdr});  // no trailer
}

TEST_CASE("Malformed net files are refused with the line") {
  CHECK(net_reader_error("Switch 8 \"s\"\n[1] \"nobody\"[1]\n") ==
        "line 2: no node \"nobody\" in the file");
  CHECK(net_reader_error("[1] \"a\"[1]\n") == "line 1: port line outside a node record");
  CHECK(net_reader_error("Switch eight \"s\"\n") ==
        "line 1: expected TYPE PORTS \"NAME\", got 'Switch eight \"s\"'");
  CHECK(net_reader_error("Hca 1 \"a\"\n[2] \"b\"[1]\n\nHca 1 \"b\"\n") ==
        "line 2: no port 2 on 'a'");
  CHECK(
      net_reader_error("Hca 1 \"a\"\n[1] \"b\"[1]\n\nHca 1 \"b\"\n[1] \"c\"[1]\n\nHca 1 \"c\"\n") ==
      "line 5: b[1] is cabled to a[1] by another line");
  CHECK(net_reader_error("include other.net\n") ==
        "line 1: 'include' lines are not supported here");
  CHECK(net_reader_error("Hca 1 \"a\"\nnonsense\n") == "line 2: unexpected line 'nonsense'");
}
