// SPDX-License-Identifier: MIT
// A fabric snapshot gives back the same fabric, field for field, under the same tag only; bytes
// that are not a whole snapshot give nothing, never a partial fabric or a crash.
#include <catch2/catch.hpp>

#include "fabric/fabric_snapshot.hpp"

using namespace ibpm;

namespace {

// Every kind of node and every field a port can have, including what a text dump cannot hold:
// an uncabled port with its state and enabled sets, a description with quotes and a line break.
Fabric every_field() {
  Fabric f;
  Node& sw = f.add_node(0x100, NodeType::sw, "spine \"01\"\nrack 3", 36);
  sw.system_image_guid = 0x1000;
  sw.vendor_id = 0x2c9;
  sw.device_id = 0xd2f0;
  Port& p0 = f.port({0x100, 0});
  p0.lid = 1;
  p0.guid = 0x100;
  p0.lmc = 2;
  Port& p5 = f.port({0x100, 5});
  p5.state = PortState::active;
  p5.width = LinkWidth::x4;
  p5.speed = LinkSpeed::hdr;
  p5.widths_enabled.insert(LinkWidth::x1);
  p5.widths_enabled.insert(LinkWidth::x4);
  p5.speeds_enabled.insert(LinkSpeed::edr);
  p5.speeds_enabled.insert(LinkSpeed::hdr);
  p5.label = "1/3/1";
  Port& p36 = f.port({0x100, 36});  // present, no cable
  p36.state = PortState::down;
  p36.speeds_enabled.insert(LinkSpeed::xdr);
  Node& ca = f.add_node(0x200, NodeType::ca, "cn0001 HCA-1", 2);
  ca.vendor_id = 0x15b3;
  f.port({0x200, 1}).guid = 0x201;
  f.port({0x200, 1}).lid = 7;
  f.add_node(0x300, NodeType::router, "", 1);
  f.add_node(0x400, NodeType::unknown, "?", 0);
  f.connect({0x100, 5}, {0x200, 1});
  f.connect({0x300, 1}, {0x100, 7});
  return f;
}

}  // namespace

TEST_CASE("a fabric snapshot gives back the same fabric under the same tag") {
  const Fabric fabric = every_field();
  const std::string bytes = fabric_snapshot(fabric, "of the test");
  const std::optional<Fabric> back = fabric_from_snapshot(bytes, "of the test");
  REQUIRE(back);
  CHECK(*back == fabric);
  CHECK(back->nodes()[0].description == "spine \"01\"\nrack 3");
  CHECK(back->remote({0x200, 1}) == PortRef{0x100, 5});
  CHECK(back->find_port({0x100, 36})->state == PortState::down);
  CHECK_FALSE(back->find_port({0x100, 36})->link);

  CHECK_FALSE(fabric_from_snapshot(bytes, "of another cache"));
  CHECK_FALSE(fabric_from_snapshot(bytes, "of the tes"));
  CHECK(*fabric_from_snapshot(fabric_snapshot(Fabric{}, "t"), "t") == Fabric{});
}

TEST_CASE("a snapshot cut short or changed anywhere gives nothing or a whole fabric") {
  const Fabric fabric = every_field();
  const std::string bytes = fabric_snapshot(fabric, "t");
  for (std::size_t size = 0; size < bytes.size(); ++size)
    CHECK_FALSE(fabric_from_snapshot(std::string_view(bytes).substr(0, size), "t"));
  CHECK_FALSE(fabric_from_snapshot(bytes + '\0', "t"));
  // Every byte set to 0xff in turn (counts, indexes, enumerations, flags out of range) or
  // changed a little: refused, or read as a fabric whose every cable joins two of its ports.
  for (std::size_t at = 0; at < bytes.size(); ++at) {
    for (const int delta : {0xff, 1}) {
      std::string changed = bytes;
      changed[at] = static_cast<char>(delta == 0xff ? 0xff : changed[at] + 1);
      const std::optional<Fabric> read = fabric_from_snapshot(changed, "t");
      if (!read) continue;
      for (const Link& link : read->links()) {
        CHECK(read->find_port(link.a));
        CHECK(read->find_port(link.b));
      }
    }
  }
  // The format's version, and a node count one higher or lower than the nodes that follow.
  const std::size_t version = std::string_view(bytes).find('1');
  const std::size_t node_count = bytes.find('\n', bytes.find('\n') + 1) + 1;
  for (const std::size_t at : {version, node_count})
    for (const int delta : {1, -1}) {
      std::string changed = bytes;
      changed[at] = static_cast<char>(changed[at] + delta);
      CHECK_FALSE(fabric_from_snapshot(changed, "t"));
    }
}
