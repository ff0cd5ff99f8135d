// SPDX-License-Identifier: MIT

#include <catch2/catch.hpp>

#include "sim/console_text.hpp"
#include "sim/degrade.hpp"
#include "sim/fat_tree.hpp"
#include "sim/net_file.hpp"
#include "sim/net_topology.hpp"
#include "sim/sim_programs.hpp"

using namespace ibpm;
using namespace ibpm::sim;

TEST_CASE("net topology refuses double cabling and bad names") {
  NetTopology t;
  auto ca = t.add_node(NodeType::ca, "cn01", 1);
  auto sw = t.add_node(NodeType::sw, "leaf01", 4);
  t.connect({ca, 1}, {sw, 1});
  REQUIRE_THROWS_AS(t.connect({ca, 1}, {sw, 2}), std::invalid_argument);
  REQUIRE_THROWS_AS(t.connect({sw, 5}, {sw, 2}), std::invalid_argument);
  REQUIRE_THROWS_AS(t.connect({sw, 2}, {sw, 2}), std::invalid_argument);
  REQUIRE_THROWS_AS(t.add_node(NodeType::sw, "leaf01", 4), std::invalid_argument);
  REQUIRE_THROWS_AS(t.add_node(NodeType::sw, "bad\"name", 4), std::invalid_argument);
  REQUIRE_THROWS_AS(t.add_node(NodeType::sw, "a#b", 4), std::invalid_argument);
  REQUIRE(t.peer({sw, 1}) == NetPort{ca, 1});
  REQUIRE_FALSE(t.peer({sw, 2}));
}

TEST_CASE("net file text and size") {
  NetTopology t;
  auto ca = t.add_node(NodeType::ca, "cn01", 1);
  auto sw = t.add_node(NodeType::sw, "leaf01", 8);
  t.connect({ca, 1}, {sw, 3}, {LinkWidth::x4, LinkSpeed::edr});
  std::string net = to_ibsim_net(t, "tiny");
  REQUIRE(net ==
          "# tiny\n\n"
          "Hca\t1\t\"cn01\"\n"
          "[1]\t\"leaf01\"[3]\t# \"leaf01\" lid 0 4xEDR\n\n"
          "Switch\t8\t\"leaf01\"\n"
          "[3]\t\"cn01\"[1]\t# \"cn01\" lid 0 4xEDR\n\n");
  NetSize size = measure_net(net);
  REQUIRE(size.nodes == 2);
  REQUIRE(size.switches == 1);
  REQUIRE(size.ports == 1 + 9);
  NetSize direct = measure_net(t);
  REQUIRE(direct.nodes == size.nodes);
  REQUIRE(direct.ports == size.ports);

  t.set_setting({ca, 1}, {LinkWidth::x4, LinkSpeed::xdr});
  REQUIRE_THROWS_AS(to_ibsim_net(t), std::invalid_argument);
}

TEST_CASE("ibsim limits are raised only for big fabrics") {
  REQUIRE(ibsim_capacity_args({702, 54, 2646}).empty());
  REQUIRE(ibsim_capacity_args({3000, 100, 9000}) == std::vector<std::string>{"-N", "3000"});
  REQUIRE(ibsim_capacity_args({12000, 1620, 71604}) ==
          std::vector<std::string>{"-N", "12000", "-S", "1620", "-P", "71604"});
  FatTreeOptions o;
  o.hosts = 648;
  FatTree ft = make_fat_tree(o);
  NetSize size = measure_net(ft.net_file());
  REQUIRE(size.nodes == 702);
  REQUIRE(size.switches == 54);
  REQUIRE(size.ports == 648 + 54 * 37);
}

TEST_CASE("degraded links") {
  FatTreeOptions o;
  o.hosts = 16;
  o.radix = 8;
  FatTree ft = make_fat_tree(o);
  auto leaf = *ft.topology.find_node("leaf01");
  auto spine = *ft.topology.find_node("spine01");

  SECTION("one end") {
    LinkDegradation d;
    d.node = "leaf01";
    d.port = 5;
    d.both_ends = false;
    degrade_link(ft.topology, d);
    std::string net = ft.net_file();
    REQUIRE(net.find("[5]\t\"spine01\"[1]\t# \"spine01\" lid 0 1xHDR\n") != std::string::npos);
    REQUIRE(net.find("[1]\t\"leaf01\"[5]\t# \"leaf01\" lid 0 4xHDR\n") != std::string::npos);
  }
  SECTION("both ends, with a speed") {
    degrade_link(ft.topology, {"leaf01", 5, LinkWidth::x2, LinkSpeed::edr, true});
    REQUIRE(LinkDegradation{}.both_ends);
    REQUIRE(ft.topology.setting({leaf, 5}) == PortSetting{LinkWidth::x2, LinkSpeed::edr});
    REQUIRE(ft.topology.setting({spine, 1}) == PortSetting{LinkWidth::x2, LinkSpeed::edr});
  }
  SECTION("unknown node or uncabled port") {
    LinkDegradation d;
    d.node = "leaf99";
    d.port = 5;
    REQUIRE_THROWS_AS(degrade_link(ft.topology, d), std::invalid_argument);
    d.node = "spine02";
    d.port = 9;
    REQUIRE_THROWS_AS(degrade_link(ft.topology, d), std::invalid_argument);
  }
  SECTION("spec parsing") {
    auto d = parse_degradation("leaf01[19]=1x");
    REQUIRE(d);
    REQUIRE(d->node == "leaf01");
    REQUIRE(d->port == 19);
    REQUIRE(d->width == LinkWidth::x1);
    REQUIRE_FALSE(d->speed);
    d = parse_degradation("cn0001[1]=4XEDR");
    REQUIRE(d);
    REQUIRE(d->width == LinkWidth::x4);
    REQUIRE(d->speed == LinkSpeed::edr);
    REQUIRE_FALSE(parse_degradation("leaf01=1x"));
    REQUIRE_FALSE(parse_degradation("leaf01[x]=1x"));
    REQUIRE_FALSE(parse_degradation("leaf01[1]=3x"));
    REQUIRE_FALSE(parse_degradation("leaf01[1]=1xFOO"));
    REQUIRE_FALSE(parse_degradation("[1]=1x"));
  }
}

TEST_CASE("console replies") {
  std::string raw =
      "leaf01[2] PortCounters.SymbolErrorCounter has been set to 42\nsim> # note"
      "sim> # nodeid \"nope\" (nope) not found\nsim> command 'Zzz' unknown - skipped\n"
      "sim> # ibpm-sim-sync 1-1-ab.";
  std::string reply = clean_console_reply(raw, "# ibpm-sim-sync 1-1-ab.");
  REQUIRE(reply ==
          "leaf01[2] PortCounters.SymbolErrorCounter has been set to 42\n# note\n"
          "# nodeid \"nope\" (nope) not found\ncommand 'Zzz' unknown - skipped\n");
  auto errors = console_errors(reply, {"PerformanceSet ...", "# note", "Unlink \"nope\"", "Zzz"});
  REQUIRE(errors == std::vector<std::string>{"# nodeid \"nope\" (nope) not found",
                                             "command 'Zzz' unknown - skipped"});
  REQUIRE(console_errors("# Net status - now\n#  dumped 3 nodes\n", {"Dump"}).empty());
  REQUIRE(console_errors("leaf01[2] ... has been set to 1\n", {"PerformanceSet"}).empty());

  auto clients = attached_clients(
      "Client 0: pid 123 connected at \"cn0001\" port 0x100001, lid 1, qp 0 \n"
      "Client 3: pid 456 connected at \"cn0001\" port 0x100001, lid 1, qp 0 SM\n");
  REQUIRE(clients == std::vector<std::pair<int, int>>{{0, 123}, {3, 456}});
}

TEST_CASE("missing programs name their Debian package") {
  REQUIRE(debian_package_for("ibsim") == "ibsim-utils");
  REQUIRE(debian_package_for("/usr/sbin/opensm") == "opensm");
  REQUIRE(debian_package_for("perfquery") == "infiniband-diags");
  REQUIRE(debian_package_for("ibnetdiscover") == "infiniband-diags");
  REQUIRE(debian_package_for("ls").empty());
  try {
    require_program("/nonexistent/ibsim");
    FAIL("expected MissingProgram");
  } catch (const MissingProgram& e) {
    REQUIRE_THAT(e.what(), Catch::Contains("ibsim-utils"));
  }
}
