// SPDX-License-Identifier: MIT

#include "dump/ibsim_net_writer.hpp"

#include <catch2/catch.hpp>
#include <sstream>
#include <stdexcept>
#include <unordered_set>

#include "dump/ibsim_names.hpp"
#include "fixtures.hpp"
#include "sample_dumps.hpp"

using namespace ibpm;
using namespace ibpm::test;

namespace {

std::string net(const Fabric& f, const dump::IbsimNetOptions& options = {}) {
  std::ostringstream out;
  dump::write_ibsim_net(out, f, options);
  return out.str();
}

// The first node header line of an ibsim net file.
std::string first_header(const std::string& text) {
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);)
    if (line.starts_with("Switch") || line.starts_with("Hca")) return line;
  return {};
}

}  // namespace

TEST_CASE("ibsim ids: descriptions where unique and safe / else made unique", "[dump][ibsim]") {
  Fabric f;
  f.add_node(0x01, NodeType::sw, "leaf01", 36);
  f.add_node(0x02, NodeType::ca, "MT25408 ConnectX Mellanox Technologies", 2);
  f.add_node(0x03, NodeType::ca, "MT25408 ConnectX Mellanox Technologies", 2);
  f.add_node(0x04, NodeType::sw, "Voltaire 4036 # 4036-8C5C", 36);
  f.add_node(0x05, NodeType::ca, "", 1);
  f.add_node(0x06, NodeType::ca, "selene-cache-02 mlx5_1 ", 1);
  f.add_node(0x07, NodeType::ca, "a \"quoted\"\nname=x@y", 1);
  f.add_node(0x08, NodeType::ca, std::string(70, 'n'), 1);
  f.add_node(0x09, NodeType::ca, "leaf01 0000000000000001", 1);  // looks like a generated id
  auto names = dump::ibsim_node_names(f);
  CHECK(names[0x01] == "leaf01");
  CHECK(names[0x02] == "MT25408 ConnectX Mellanox Technologies 0000000000000002");
  CHECK(names[0x03] == "MT25408 ConnectX Mellanox Technologies 0000000000000003");
  CHECK(names[0x04] == "Voltaire 4036 _ 4036-8C5C 0000000000000004");
  CHECK(names[0x05] == "H-0000000000000005");
  CHECK(names[0x06] == "selene-cache-02 mlx5_1 0000000000000006");
  CHECK(names[0x07] == "a _quoted__name_x_y 0000000000000007");
  CHECK(names[0x08].size() <= dump::kIbsimMaxId);
  CHECK(names[0x08].ends_with(" 0000000000000008"));
  CHECK(names[0x09] == "leaf01 0000000000000001");
  std::unordered_set<std::string> seen;
  for (const auto& [guid, name] : names) {
    CHECK(dump::ibsim_safe_id(name));
    CHECK(seen.insert(name).second);
  }
}

TEST_CASE("ibsim net file: headers / ports and width/speed trailers", "[dump][ibsim]") {
  const Fabric f = parse_text(kSample).fabric;
  const std::string text = net(f);
  // The CA comes first: ibsim attaches the SM and clients to the first node.
  CHECK(first_header(text) == "Hca\t2 \"r-ufm216 HCA-2\"\t\t# \"r-ufm216 HCA-2\"");
  // The switch's description ends in a blank, so its id gets the GUID.
  const std::string sw = "\"SwitchIB Mellanox Technologies e41d2d030003e470\"";
  CHECK(text.find("[1]\t" + sw + "[34]\t\t# lid 0 lmc 0 " + sw + " lid 0 4xEDR\n") !=
        std::string::npos);
  // Switch lines; the self-loop and both parallel cables; the FDR10 one.
  CHECK(text.find("Switch\t36 " + sw + "\t\t# \"SwitchIB Mellanox Technologies \"\n") !=
        std::string::npos);
  CHECK(text.find("[1]\t" + sw + "[2]\t\t# " + sw + " lid 0 4xEDR\n") != std::string::npos);
  CHECK(text.find("[4]\t\"MF0;switch-de779e:SX6012/U1\"[2]\t\t# \"MF0;switch-de779e:SX6012/U1\" "
                  "lid 0 4xFDR10\n") != std::string::npos);
  CHECK(text.find("switchguid=") == std::string::npos);
}

TEST_CASE("ibsim net file: chosen first node / routers / GUIDs / limits", "[dump][ibsim]") {
  Fabric f = parse_text(kSample).fabric;
  SECTION("first node by GUID") {
    CHECK(first_header(net(f, {.first_node = 0xf4521403005764b0})) ==
          "Switch\t12 \"MF0;switch-de779e:SX6012/U1\"\t\t# \"MF0;switch-de779e:SX6012/U1\"");
    CHECK_THROWS_AS(net(f, {.first_node = 0x1234}), std::invalid_argument);
  }
  SECTION("routers are written as switches") {
    f.add_node(0x20, NodeType::router, "rt", 2);
    f.connect({0x20, 1}, {0xf4521403005764b0, 5});
    std::string text = net(f);
    CHECK(text.find("# router 0x0000000000000020, written as a switch (ibsim has no routers)\n"
                    "Switch\t2 \"rt\"") != std::string::npos);
  }
  SECTION("vendid/devid per node; keep_guids adds ibsim's GUID lines") {
    CHECK(net(f).find("vendid=0x2c9\ndevid=0xc738\nSwitch\t12 ") != std::string::npos);
    dump::IbsimNetOptions options;
    options.keep_guids = true;
    std::string text = net(f, options);
    CHECK(text.find("vendid=0x2c9\ndevid=0xcb20\nsysimgguid=0xe41d2d030003e470\n"
                    "switchguid=0xe41d2d030003e470\nSwitch\t36 ") != std::string::npos);
    CHECK(text.find("caguid=0xe41d2d030061f957\nHca\t2 ") != std::string::npos);
  }
  SECTION("speed cap") {
    dump::IbsimNetOptions options;
    options.speed_cap = LinkSpeed::fdr;
    std::string text = net(f, options);
    CHECK(text.find("4xEDR") == std::string::npos);
    CHECK(text.find("4xFDR10\n") != std::string::npos);  // FDR10 is slower than FDR
    CHECK(text.find("lid 0 4xFDR\n") != std::string::npos);
  }
  SECTION("port counts stay within 1..255; a node without ports still gets one") {
    f.add_node(0x99, NodeType::ca, "portless", 0);
    CHECK(net(f).find("Hca\t1 \"portless\"") != std::string::npos);
  }
  SECTION("without width and speed no trailer is written") {
    f.port({0xe41d2d030003e470, 3}).speed.reset();
    CHECK(net(f).find("[3]\t\"MF0;switch-de779e:SX6012/U1\"[1]\n") != std::string::npos);
  }
  SECTION("lines stay within ibsim's 255 bytes with 64-byte names") {
    Fabric g;
    g.add_node(0x1, NodeType::sw, std::string(64, 's'), 255);
    g.add_node(0x2, NodeType::ca, std::string(64, 'c'), 2);
    g.add_node(0x3, NodeType::ca, std::string(64, 'c'), 2);
    g.connect({0x1, 255}, {0x2, 2});
    g.port({0x1, 255}).width = LinkWidth::x12;
    g.port({0x1, 255}).speed = LinkSpeed::fdr10;
    std::istringstream in(net(g));
    for (std::string line; std::getline(in, line);) CHECK(line.size() < 255);
  }
}
