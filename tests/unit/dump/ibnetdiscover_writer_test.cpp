// SPDX-License-Identifier: MIT

#include "dump/ibnetdiscover_writer.hpp"

#include <catch2/catch.hpp>
#include <sstream>

#include "fixtures.hpp"
#include "sample_dumps.hpp"

using namespace ibpm;
using namespace ibpm::test;

namespace {

std::string written(const Fabric& f) {
  std::ostringstream out;
  dump::write_ibnetdiscover(out, f);
  return out.str();
}

// A switch with a labelled port cabled to a CA, built through the model's API.
Fabric small_fabric() {
  Fabric f;
  Node& sw = f.add_node(0x0002c903007b78b0, NodeType::sw, "MF0;sw:SX6036/U1", 36);
  sw.vendor_id = 0x2c9;
  sw.device_id = 0xc738;
  sw.system_image_guid = 0x0002c903007b78b0;
  f.add_node(0x0c42a103008b40d0, NodeType::ca, "host HCA-1", 2);
  Port& p0 = f.port({0x0002c903007b78b0, 0});
  p0.guid = 0x0002c903007b78b0;
  p0.lid = 19;
  f.connect({0x0002c903007b78b0, 8}, {0x0c42a103008b40d0, 1});
  Port& sp = f.port({0x0002c903007b78b0, 8});
  sp.guid = 0x0002c903007b78b0;
  sp.width = LinkWidth::x4;
  sp.speed = LinkSpeed::fdr;
  sp.state = PortState::active;
  sp.label = "1/8";
  Port& cp = f.port({0x0c42a103008b40d0, 1});
  cp.guid = 0x0c42a103008b40d1;
  cp.lid = 101;
  cp.width = LinkWidth::x4;
  cp.speed = LinkSpeed::fdr;
  cp.state = PortState::active;
  return f;
}

}  // namespace

TEST_CASE("ibnetdiscover text as ibnetdiscover prints it", "[dump][writer]") {
  CHECK(written(small_fabric()) ==
        "#\n# Topology file: written by ibpm from its fabric model\n#\n"
        "\n"
        "vendid=0x2c9\n"
        "devid=0xc738\n"
        "sysimgguid=0x2c903007b78b0\n"
        "switchguid=0x2c903007b78b0(2c903007b78b0)\n"
        "Switch\t36 \"S-0002c903007b78b0\"\t\t# \"MF0;sw:SX6036/U1\" base port 0 lid 19 lmc 0\n"
        "[8](1/8)\t\"H-0c42a103008b40d0\"[1](c42a103008b40d1) \t\t# \"host HCA-1\" lid 101 4xFDR\n"
        "\n"
        "vendid=0x0\n"
        "devid=0x0\n"
        "caguid=0xc42a103008b40d0\n"
        "Ca\t2 \"H-0c42a103008b40d0\"\t\t# \"host HCA-1\"\n"
        "[1](c42a103008b40d1) \t\"S-0002c903007b78b0\"[8]\t\t# lid 101 lmc 0 \"MF0;sw:SX6036/U1\" "
        "lid 19 4xFDR\n");
}

TEST_CASE("written text reads back to the same fabric", "[dump][writer]") {
  SECTION("built through the API") {
    Fabric f = small_fabric();
    dump::ParsedDump again = parse_text(written(f));
    CHECK(again.warnings.empty());
    CHECK(fabric_difference(f, again.fabric, true) == "");
  }
  SECTION("parsed sample with self-loop, parallel links and FDR10") {
    Fabric f = parse_text(kSample).fabric;
    dump::ParsedDump again = parse_text(written(f));
    CHECK(again.warnings.empty());
    CHECK(fabric_difference(f, again.fabric, true) == "");
  }
}

TEST_CASE("node order is deterministic: switches / CAs / routers / each by GUID",
          "[dump][writer]") {
  Fabric a;
  a.add_node(0x30, NodeType::ca, "c2", 1);
  a.add_node(0x50, NodeType::router, "r", 1);
  a.add_node(0x20, NodeType::sw, "s2", 8);
  a.add_node(0x10, NodeType::ca, "c1", 1);
  a.add_node(0x05, NodeType::sw, "s1", 8);
  Fabric b;  // the same nodes added in another order
  for (Guid g : {0x05, 0x10, 0x20, 0x30, 0x50}) {
    const Node& n = a.node(g);
    b.add_node(g, n.type, n.description, n.port_count);
  }
  std::string text = written(a);
  CHECK(text == written(b));
  std::size_t s1 = text.find("\"s1\""), s2 = text.find("\"s2\""), c1 = text.find("\"c1\""),
              c2 = text.find("\"c2\""), r = text.find("Rt\t1 \"R-0000000000000050\"");
  CHECK(s1 < s2);
  CHECK(s2 < c1);
  CHECK(c1 < c2);
  CHECK(c2 < r);
  CHECK(text.find("rtguid=0x50\n") != std::string::npos);
}

TEST_CASE("what the format cannot carry", "[dump][writer]") {
  Fabric f;
  f.add_node(0x10, NodeType::ca, "say \"hi\"", 1);
  f.add_node(0x20, NodeType::sw, "sw", 4);
  f.connect({0x10, 1}, {0x20, 2});
  f.port({0x10, 1}).width = LinkWidth::x4;  // speed unknown
  std::string text = written(f);
  CHECK(text.find("# Note: '\"' and line breaks cannot appear") != std::string::npos);
  CHECK(text.find("# \"say 'hi'\"") != std::string::npos);
  CHECK(text.find("lid 0 4x???\n") != std::string::npos);
  CHECK(text.find("lid 0 ?????\n") != std::string::npos);
  dump::ParsedDump again = parse_text(text);
  CHECK(again.fabric.node(0x10).description == "say 'hi'");
  CHECK(again.fabric.find_port({0x10, 1})->width == LinkWidth::x4);
  CHECK_FALSE(again.fabric.find_port({0x20, 2})->speed);
  CHECK(again.warnings.size() == 2);  // the LIDs the model lacked were written as 0
}
