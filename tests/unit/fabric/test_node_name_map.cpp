// SPDX-License-Identifier: MIT

#include <catch2/catch.hpp>
#include <filesystem>
#include <sstream>

#include "fabric/node_name_map.hpp"
#include "support/skip.hpp"

using namespace ibpm;

namespace {
NodeNameMap parse(const std::string& text) {
  std::istringstream in(text);
  return NodeNameMap::parse(in, "map");
}
}  // namespace

TEST_CASE("node-name-map lines: quoted / unquoted / comments / tabs") {
  NodeNameMap map = parse(
      "# a comment\n"
      "0x0002c90300000001 \"leaf 01 # A\"  # trailing comment\n"
      "0x0002c90300000002\tspine01\t# comment\n"
      "   0x3 core(1)\r\n"
      "\n"
      "0x4\t# no name: ignored\n");
  REQUIRE(map.size() == 3);
  CHECK(*map.find(0x0002c90300000001) == "leaf 01 # A");
  CHECK(*map.find(0x0002c90300000002) == "spine01");
  CHECK(*map.find(0x3) == "core(1)");
  CHECK(map.find(0x4) == nullptr);
}

TEST_CASE("node-name-map errors name the line") {
  CHECK_THROWS_WITH(parse("0x1 a\nnot-a-guid b\n"), Catch::Contains("map:2"));
  CHECK_THROWS_WITH(parse("0x1 \"unterminated\n"), Catch::Contains("unterminated"));
}

TEST_CASE("node-name-map accepts ibnetdiscover-style H-/S- GUIDs") {
  NodeNameMap map = parse("H-003048c74e4a0000 x5570comp1\n");
  CHECK(*map.find(0x003048c74e4a0000) == "x5570comp1");
}

TEST_CASE("real node-name-map files") {
  std::filesystem::path dir = IBPM_REAL_FIXTURES;
  if (!std::filesystem::exists(dir)) IBPM_SKIP(dir << " is absent");
  NodeNameMap edge =
      NodeNameMap::load((dir / "fabricmon_testdata_edgecases.ib-node-name-map").string());
  CHECK(edge.size() == 4);
  CHECK(*edge.find(0xb7c31c3b29d0c791) == "ibsw1(root-sw)");
  CHECK(*edge.find(0xa31de6b2f83b0a91) == "ibsw2");
  CHECK(*edge.find(0x4878ef07ca6bf2a0) == "sw1 - root");
  CHECK(*edge.find(0x9cf5e55c63d7a4a3) == "sw1 #root#");
  CHECK(edge.find(0x0123456789abcdef) == nullptr);

  NodeNameMap psmn = NodeNameMap::load((dir / "psmn_x5_guid_hostname.map").string());
  CHECK(psmn.size() > 50);
  CHECK(*psmn.find(0x003048c74e4a0000) == "x5570comp1");
}

TEST_CASE("a missing node-name-map file is a clear error") {
  CHECK_THROWS_WITH(NodeNameMap::load("/nonexistent/map"), Catch::Contains("/nonexistent/map"));
}

TEST_CASE("a node-name-map that starts with a byte order mark reads its first line") {
  NodeNameMap map = parse(
      "\xEF\xBB\xBF"
      "0x0002c90300000001 leaf01\n0x0002c90300000002 leaf02\n");
  REQUIRE(map.find(0x0002c90300000001));
  CHECK(*map.find(0x0002c90300000001) == "leaf01");
  CHECK(map.size() == 2);
}

TEST_CASE("a directory given as node-name-map is refused, not read as an empty map") {
  const auto dir = std::filesystem::temp_directory_path();
  CHECK_THROWS_WITH(NodeNameMap::load(dir.string()),
                    Catch::Contains(dir.string()) && Catch::Contains("is a directory"));
}
