// SPDX-License-Identifier: MIT
// Delegation files: statements, node names as --node takes them, and errors naming PATH:LINE.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "delegation/delegation_file.hpp"
#include "support/temp_dir.hpp"
#include "support/text_files.hpp"

using namespace ibpm;
using namespace ibpm::delegation;

namespace {

constexpr Guid kLeaf = 0x100, kSpine = 0x200, kHost1 = 0x300, kHost2 = 0x400, kLidNamed = 0x500;

Fabric fabric() {
  Fabric f;
  f.add_node(kLeaf, NodeType::sw, "leaf01", 36);
  f.port({kLeaf, 0}).lid = 2;
  f.add_node(kSpine, NodeType::sw, "spine01", 36);
  f.port({kSpine, 0}).lid = 3;
  f.add_node(kHost1, NodeType::ca, "cn0001 HCA-1", 1);
  f.port({kHost1, 1}).lid = 1;
  f.add_node(kHost2, NodeType::ca, "cn0002 HCA-1", 1);
  f.port({kHost2, 1}).lid = 4;
  f.add_node(kLidNamed, NodeType::ca, "lid", 1);  // a name that is also a keyword
  f.port({kLidNamed, 1}).lid = 5;
  f.connect({kLeaf, 1}, {kHost1, 1});
  f.connect({kLeaf, 2}, {kHost2, 1});
  f.connect({kLeaf, 3}, {kLidNamed, 1});
  f.connect({kLeaf, 19}, {kSpine, 1});
  return f;
}

NodeNameMap names() {
  NodeNameMap map;
  map.set(kLeaf, "rack1-leaf");
  return map;
}

DelegationFile parse(const std::string& text) {
  std::istringstream in(text);
  const Fabric f = fabric();
  const NodeNameMap map = names();
  return parse_delegation_file(in, "deleg.conf", f, &map);
}

std::string error_of(const std::string& text) {
  try {
    parse(text);
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return "(no error)";
}

// A file in a fresh temporary folder, removed afterwards.
struct TempFile {
  explicit TempFile(const std::string& text) : path(dir / "delegation.conf") {
    ibpm::test::write_text(path, text);
  }
  ibpm::test::TempDir dir{"delegation"};
  std::string path;
};

}  // namespace

TEST_CASE("A delegation file with every kind of statement") {
  const DelegationFile file = parse(
      "# collectors of the 4-way split\n"
      "shards 4\n"
      "\n"
      "collector 1 0x0000000000000300   # cn0001 by GUID\n"
      "collector 2 \"cn0002 HCA-1\"\n"
      "pin 2 spine01\n"
      "\tpin 3 rack1-leaf 1-2,19\n"
      "pin 1 lid 5\n");
  CHECK(file.shards == 4u);
  CHECK(file.collectors == std::map<unsigned, Guid>{{1, kHost1}, {2, kHost2}});
  REQUIRE(file.pins.size() == 3);
  CHECK(file.pins[0].shard == 2);
  CHECK(file.pins[0].node == kSpine);
  CHECK(file.pins[0].ports.empty());
  CHECK(file.pins[1].shard == 3);
  CHECK(file.pins[1].node == kLeaf);
  CHECK(file.pins[1].ports == std::vector<PortNumber>{1, 2, 19});
  CHECK(file.pins[2].shard == 1);
  CHECK(file.pins[2].node == kLidNamed);  // the node at LID 5
}

TEST_CASE("Nodes in a delegation file are named by GUID LID name or description") {
  const DelegationFile file = parse(
      "pin 1 0x200\n"
      "pin 2 4\n"             // LID of cn0002
      "pin 3 rack1-leaf 5\n"  // node-name-map name
      "pin 4 leaf01 6\n"      // NodeDescription
      "pin 1 \"cn0001 HCA-1\"\n"
      "pin 2 \"lid\"\n");  // quoted: the node named lid, not the keyword
  REQUIRE(file.pins.size() == 6);
  CHECK(file.pins[0].node == kSpine);
  CHECK(file.pins[1].node == kHost2);
  CHECK(file.pins[2].node == kLeaf);
  CHECK(file.pins[3].node == kLeaf);
  CHECK(file.pins[4].node == kHost1);
  CHECK(file.pins[5].node == kLidNamed);
}

TEST_CASE("Comments and blank lines in a delegation file are ignored") {
  const DelegationFile file = parse(
      "\n"
      "   # indented comment\n"
      "pin 1 spine01# no space before the comment\n"
      "pin 2 \"cn0001 HCA-1\" # after a quoted name\n"
      "\r\n"
      "pin 3 leaf01 7\r\n");
  REQUIRE(file.pins.size() == 3);
  CHECK(file.pins[0].node == kSpine);
  CHECK(file.pins[1].node == kHost1);
  CHECK(file.pins[2].ports == std::vector<PortNumber>{7});
  CHECK(file.collectors.empty());
  CHECK_FALSE(file.shards);
  CHECK(parse("# nothing but a comment\n").pins.empty());
}

TEST_CASE("Unknown statements and nodes are errors naming the file and line") {
  CHECK(error_of("\npinn 1 spine01\n") ==
        "deleg.conf:2: unknown statement 'pinn' (expected shards, collector or pin)");
  CHECK(error_of("\"pin\" 1 spine01\n") ==
        "deleg.conf:1: unknown statement 'pin' (expected shards, collector or pin)");
  CHECK(error_of("pin 1 spine99\n") == "deleg.conf:1: no node named 'spine99' in the topology");
  CHECK(error_of("pin 1 lid 77\n") == "deleg.conf:1: no port with LID 77 in the topology");
  CHECK(error_of("pin 1 \"cn0001\"\n") == "deleg.conf:1: no node named 'cn0001' in the topology");
  CHECK(error_of("collector 1 0x999\n") ==
        "deleg.conf:1: no node or port with GUID 0x0000000000000999 in the topology");
}

TEST_CASE("Statements with missing or extra words are errors") {
  CHECK(error_of("pin 1\n") == "deleg.conf:1: expected: pin SHARD NODE [PORTS]");
  CHECK(error_of("collector 1\n") == "deleg.conf:1: expected: collector SHARD NODE");
  CHECK(error_of("shards\n") == "deleg.conf:1: expected: shards N");
  CHECK(error_of("shards 4 8\n") == "deleg.conf:1: expected: shards N");
  CHECK(error_of("pin 1 leaf01 1-3 extra\n") ==
        "deleg.conf:1: unexpected 'extra' after the port list");
  CHECK(error_of("collector 1 spine01 3\n") == "deleg.conf:1: unexpected '3'");
  CHECK(error_of("pin 1 lid\n") ==
        "deleg.conf:1: 'lid' must be followed by a LID (a decimal number)");
  CHECK(error_of("pin 1 lid 0x5\n") ==
        "deleg.conf:1: 'lid' must be followed by a LID (a decimal number)");
}

TEST_CASE("Quotes in a delegation file must be closed and stand alone") {
  CHECK(error_of("pin 1 \"cn0001 HCA-1\n") == "deleg.conf:1: unterminated quote");
  CHECK(error_of("pin 1 \"cn0001 HCA-1\"x\n") ==
        "deleg.conf:1: a space must follow the closing quote of \"cn0001 HCA-1\"");
  CHECK(error_of("pin 1 cn\"0001\"\n") ==
        "deleg.conf:1: a quote inside 'cn\"': quote the whole name");
  // '#' inside quotes is part of the name, so this one is just not in the topology
  CHECK(error_of("pin 1 \"cn#1\"\n") == "deleg.conf:1: no node named 'cn#1' in the topology");
}

TEST_CASE("Bad shard numbers are errors") {
  CHECK(error_of("pin 0 spine01\n") ==
        "deleg.conf:1: bad shard number '0' (shards are numbered 1..4096)");
  CHECK(error_of("pin x spine01\n") ==
        "deleg.conf:1: bad shard number 'x' (shards are numbered 1..4096)");
  CHECK(error_of("collector 4097 spine01\n") ==
        "deleg.conf:1: bad shard number '4097' (shards are numbered 1..4096)");
  CHECK(error_of("shards 0\n") == "deleg.conf:1: bad number of shards '0' (1..4096)");
  CHECK(error_of("shards four\n") == "deleg.conf:1: bad number of shards 'four' (1..4096)");
  CHECK(error_of("shards 4\nshards 4\n") ==
        "deleg.conf:2: a second shards line (the first is line 1)");
}

TEST_CASE("A shard beyond the file's shards line is an error on its own line") {
  CHECK(error_of("shards 2\npin 3 spine01\n") ==
        "deleg.conf:2: shard 3 is beyond the 2 shards of this file (line 1)");
  // The shards line may come last; the pin's line is still the one named.
  CHECK(error_of("pin 1 spine01\ncollector 5 lid 4\nshards 4\n") ==
        "deleg.conf:2: shard 5 is beyond the 4 shards of this file (line 3)");
  CHECK(parse("pin 4 spine01\nshards 4\n").pins.size() == 1);
}

TEST_CASE("Bad port lists and ports the node does not have are errors") {
  CHECK(error_of("pin 1 leaf01 3-1\n") ==
        "deleg.conf:1: bad port list '3-1': range '3-1' runs backwards");
  CHECK(error_of("pin 1 leaf01 1,x\n") ==
        "deleg.conf:1: bad port list '1,x': 'x' is not a port number (1..254)");
  CHECK(error_of("pin 1 leaf01 1,1\n") ==
        "deleg.conf:1: bad port list '1,1': port 1 is listed twice");
  CHECK(error_of("pin 1 leaf01 30-40\n") == "deleg.conf:1: rack1-leaf has no port 37 (it has 36)");
  CHECK(error_of("pin 1 \"cn0001 HCA-1\" 2\n") ==
        "deleg.conf:1: cn0001 HCA-1 has no port 2 (it has 1)");
}

TEST_CASE("A port pinned twice is an error naming the earlier line") {
  CHECK(error_of("pin 1 leaf01 1-4\npin 2 leaf01 4-6\n") ==
        "deleg.conf:2: rack1-leaf[4] is already pinned (line 1)");
  CHECK(error_of("pin 1 leaf01 1-4\npin 1 leaf01 3\n") ==
        "deleg.conf:2: rack1-leaf[3] is already pinned (line 1)");
  CHECK(error_of("pin 1 spine01\n\npin 2 0x200 1\n") ==
        "deleg.conf:3: spine01 is already pinned (line 1)");
  CHECK(error_of("pin 1 spine01\npin 1 spine01\n") ==
        "deleg.conf:2: spine01 is already pinned (line 1)");
  CHECK(error_of("pin 1 leaf01 7\npin 2 leaf01\n") ==
        "deleg.conf:2: rack1-leaf[7] is already pinned (line 1)");
  // Disjoint port lists of one node may go to different shards.
  CHECK(parse("pin 1 leaf01 1-18\npin 2 leaf01 19-36\n").pins.size() == 2);
}

TEST_CASE("A shard has one collector and a node collects for one shard") {
  CHECK(error_of("collector 1 \"cn0001 HCA-1\"\ncollector 1 lid 4\n") ==
        "deleg.conf:2: shard 1 already has a collector (line 1)");
  CHECK(error_of("collector 1 \"cn0001 HCA-1\"\ncollector 2 1\n") ==
        "deleg.conf:2: cn0001 HCA-1 is already the collector of shard 1 (line 1)");
}

TEST_CASE("A collector is an HCA") {
  CHECK(error_of("collector 1 spine01\n") ==
        "deleg.conf:1: spine01 is a switch: a collector is named by its host's HCA");
  CHECK(error_of("collector 1 lid 2\n") ==
        "deleg.conf:1: rack1-leaf is a switch: a collector is named by its host's HCA");
}

TEST_CASE("load_delegation_file reads a file and names it in errors") {
  {
    const TempFile file("shards 2\npin 2 spine01\n");
    const Fabric f = fabric();
    const DelegationFile read = load_delegation_file(file.path, f, nullptr);
    CHECK(read.shards == 2u);
    REQUIRE(read.pins.size() == 1);
    CHECK(read.pins[0].node == kSpine);
  }
  {
    const TempFile file("pin 2 spine01\npin 1 rack1-leaf\n");  // no node-name-map given
    const Fabric f = fabric();
    try {
      load_delegation_file(file.path, f, nullptr);
      FAIL("no error");
    } catch (const std::runtime_error& e) {
      CHECK(std::string(e.what()) == file.path + ":2: no node named 'rack1-leaf' in the topology");
    }
  }
}

TEST_CASE("load_delegation_file of a missing file or a folder says it cannot read it") {
  const Fabric f = fabric();
  const std::string missing = "/nonexistent/ibpm/delegation.conf";
  try {
    load_delegation_file(missing, f, nullptr);
    FAIL("no error");
  } catch (const std::runtime_error& e) {
    CHECK(std::string(e.what()).starts_with(missing + ": cannot read"));
  }
  const std::string folder = std::filesystem::temp_directory_path().string();
  try {
    load_delegation_file(folder, f, nullptr);
    FAIL("no error");
  } catch (const std::runtime_error& e) {
    CHECK(std::string(e.what()) == folder + ": cannot read (is a directory)");
  }
}
