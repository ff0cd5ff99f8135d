// SPDX-License-Identifier: MIT
// resolve_node: a node named by GUID, port GUID, LID, node-name-map name or description.
#include <catch2/catch.hpp>

#include "fabric/node_name_map.hpp"
#include "poll/target.hpp"

using namespace ibpm;
using ibpm::poll::resolve_node;
using ibpm::poll::TargetError;

namespace {

constexpr Guid kLeaf = 0x100, kHost = 0x300, kHostPort = 0x301, kTwinA = 0x400, kTwinB = 0x401,
               kMulti = 0x500;

Fabric fabric() {
  Fabric f;
  f.add_node(kLeaf, NodeType::sw, "leaf01", 36);
  f.port({kLeaf, 0}).lid = 2;
  f.port({kLeaf, 0}).guid = kLeaf;
  f.add_node(kHost, NodeType::ca, "cn0001 HCA-1", 1);
  f.port({kHost, 1}).lid = 1;
  f.port({kHost, 1}).guid = kHostPort;
  f.connect({kLeaf, 1}, {kHost, 1});
  f.add_node(kTwinA, NodeType::ca, "twin", 1);
  f.port({kTwinA, 1}).lid = 5;
  f.add_node(kTwinB, NodeType::ca, "twin", 1);
  f.port({kTwinB, 1}).lid = 6;
  f.add_node(kMulti, NodeType::ca, "lmc host", 1);
  f.port({kMulti, 1}).lid = 8;
  f.port({kMulti, 1}).lmc = 2;  // answers at LIDs 8..11
  return f;
}

NodeNameMap names() {
  NodeNameMap map;
  map.set(kLeaf, "rack1-leaf");
  map.set(kTwinB, "twin-b");
  return map;
}

std::string error_of(const Fabric& f, const NodeNameMap* map, std::string_view text) {
  try {
    resolve_node(f, map, text);
  } catch (const TargetError& e) {
    return e.what();
  }
  return "(no error)";
}

}  // namespace

TEST_CASE("resolve_node finds a node by its GUID") {
  const Fabric f = fabric();
  CHECK(resolve_node(f, nullptr, "0x100").guid == kLeaf);
  CHECK(resolve_node(f, nullptr, "0x0000000000000300").guid == kHost);
  CHECK(resolve_node(f, nullptr, "0X0000000000000300").guid == kHost);
}

TEST_CASE("resolve_node finds a node by one of its port GUIDs") {
  const Fabric f = fabric();
  CHECK(resolve_node(f, nullptr, "0x0000000000000301").guid == kHost);
}

TEST_CASE("resolve_node finds a node by LID") {
  const Fabric f = fabric();
  CHECK(resolve_node(f, nullptr, "2").guid == kLeaf);
  CHECK(resolve_node(f, nullptr, "1").guid == kHost);
  CHECK(resolve_node(f, nullptr, "6").guid == kTwinB);
}

TEST_CASE("resolve_node finds a port by any LID of its LMC range") {
  const Fabric f = fabric();
  CHECK(resolve_node(f, nullptr, "8").guid == kMulti);
  CHECK(resolve_node(f, nullptr, "11").guid == kMulti);
  CHECK(error_of(f, nullptr, "12").find("no port with LID 12") != std::string::npos);
}

TEST_CASE("resolve_node finds a node by its node-name-map name") {
  const Fabric f = fabric();
  const NodeNameMap map = names();
  CHECK(resolve_node(f, &map, "rack1-leaf").guid == kLeaf);
  CHECK(resolve_node(f, &map, "twin-b").guid == kTwinB);
  // Without the map the name means nothing.
  CHECK(error_of(f, nullptr, "rack1-leaf").find("no node named 'rack1-leaf'") != std::string::npos);
}

TEST_CASE("resolve_node finds a node by its description") {
  const Fabric f = fabric();
  const NodeNameMap map = names();
  CHECK(resolve_node(f, nullptr, "leaf01").guid == kLeaf);
  CHECK(resolve_node(f, nullptr, "cn0001 HCA-1").guid == kHost);
  CHECK(resolve_node(f, &map, "leaf01").guid == kLeaf);  // the description still works
}

TEST_CASE("resolve_node refuses a name several nodes have") {
  const Fabric f = fabric();
  const std::string error = error_of(f, nullptr, "twin");
  CHECK(error.find("'twin' matches 2 nodes") != std::string::npos);
  CHECK(error.find("0x0000000000000400") != std::string::npos);
  CHECK(error.find('\n') == std::string::npos);
}

TEST_CASE("resolve_node says what is missing") {
  const Fabric f = fabric();
  CHECK(error_of(f, nullptr, "nosuch").find("no node named 'nosuch'") != std::string::npos);
  CHECK(error_of(f, nullptr, "49000").find("no port with LID 49000") != std::string::npos);
  CHECK(error_of(f, nullptr, "0x999").find("no node or port with GUID 0x0000000000000999") !=
        std::string::npos);
  CHECK(error_of(f, nullptr, "0xzz").find("not a GUID") != std::string::npos);
  CHECK(error_of(f, nullptr, "").find("empty") != std::string::npos);
}

TEST_CASE("resolve_node refuses a number that is both a LID and another node's name") {
  Fabric f = fabric();
  f.add_node(0x600, NodeType::ca, "2", 1);  // a host whose description is "2"; leaf01 is LID 2
  f.port({0x600, 1}).lid = 20;
  CHECK_THROWS_WITH(resolve_node(f, nullptr, "2"), "'2' is both LID 2 (" + format_guid(kLeaf) +
                                                       ") and the name of " + format_guid(0x600) +
                                                       ": name the node by GUID");
  // A name that is a number no LID has is found by name, and the GUID always works.
  CHECK(resolve_node(f, nullptr, "0x0000000000000600").guid == 0x600);
  f.add_node(0x700, NodeType::ca, "77", 1);
  CHECK(resolve_node(f, nullptr, "77").guid == 0x700);
  // A node whose name is its own LID is no ambiguity.
  f.add_node(0x800, NodeType::ca, "30", 1);
  f.port({0x800, 1}).lid = 30;
  CHECK(resolve_node(f, nullptr, "30").guid == 0x800);
}
