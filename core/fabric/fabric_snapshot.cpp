// SPDX-License-Identifier: MIT

#include "fabric/fabric_snapshot.hpp"

#include <cstdint>
#include <stdexcept>

#include "base/byte_stream.hpp"

namespace ibpm {
namespace {

// Bumped whenever the layout below changes: an older snapshot is then made again. Numbers are
// little-endian (base::ByteWriter), so a state folder shared between machines stays readable.
constexpr std::string_view kMagic = "ibpm fabric snapshot 1\n";

// Flags of a present port: which optional fields follow.
constexpr std::uint8_t kHasGuid = 1, kHasLid = 2, kHasWidth = 4, kHasSpeed = 8;

struct Malformed : std::runtime_error {
  Malformed() : std::runtime_error("not a whole fabric snapshot") {}
};

// A value of `bytes` bytes that must be at most `max` (an enumeration's last member, a count).
std::uint64_t at_most(base::ByteReader& in, std::uint64_t max, int bytes) {
  const std::uint64_t value = in.get_uint(bytes);
  if (value > max) throw Malformed();
  return value;
}

template <typename Enum>
std::uint32_t members_up_to(Enum last) {
  return static_cast<std::uint32_t>((std::uint64_t{1} << (static_cast<unsigned>(last) + 1)) - 1);
}

template <typename Enum>
EnumSet<Enum> set_of(base::ByteReader& in, Enum last) {
  const auto bits = static_cast<std::uint32_t>(at_most(in, members_up_to(last), 4));
  EnumSet<Enum> set;
  for (unsigned i = 0; i <= static_cast<unsigned>(last); ++i)
    if (bits & (1u << i)) set.insert(static_cast<Enum>(i));
  if (set.bits() != bits) throw Malformed();  // a bit no member has
  return set;
}

void write_port(base::ByteWriter& out, const Port& port, PortNumber number) {
  out.put_uint(number, 1);
  out.put_uint((port.guid ? kHasGuid : 0) | (port.lid ? kHasLid : 0) |
                   (port.width ? kHasWidth : 0) | (port.speed ? kHasSpeed : 0),
               1);
  if (port.guid) out.put_uint(*port.guid, 8);
  if (port.lid) out.put_uint(*port.lid, 2);
  out.put_uint(port.lmc, 1);
  out.put_uint(static_cast<std::uint8_t>(port.state), 1);
  if (port.width) out.put_uint(static_cast<std::uint8_t>(*port.width), 1);
  if (port.speed) out.put_uint(static_cast<std::uint8_t>(*port.speed), 1);
  out.put_uint(port.widths_enabled.bits(), 4);
  out.put_uint(port.speeds_enabled.bits(), 4);
  out.put_text(port.label);
}

void read_port(base::ByteReader& in, Fabric& fabric, Guid node) {
  Port& port = fabric.port({node, static_cast<PortNumber>(in.get_uint(1))});
  const std::uint64_t flags = at_most(in, kHasGuid | kHasLid | kHasWidth | kHasSpeed, 1);
  if (flags & kHasGuid) port.guid = in.get_uint(8);
  if (flags & kHasLid) port.lid = static_cast<Lid>(in.get_uint(2));
  port.lmc = static_cast<std::uint8_t>(in.get_uint(1));
  port.state = static_cast<PortState>(at_most(in, static_cast<unsigned>(PortState::active), 1));
  if (flags & kHasWidth)
    port.width = static_cast<LinkWidth>(at_most(in, static_cast<unsigned>(LinkWidth::x12), 1));
  if (flags & kHasSpeed)
    port.speed = static_cast<LinkSpeed>(at_most(in, static_cast<unsigned>(LinkSpeed::xdr), 1));
  port.widths_enabled = set_of(in, LinkWidth::x12);
  port.speeds_enabled = set_of(in, LinkSpeed::xdr);
  port.label = in.get_text();
}

void read_node(base::ByteReader& in, Fabric& fabric) {
  const Guid guid = in.get_uint(8);
  const auto type = static_cast<NodeType>(at_most(in, static_cast<unsigned>(NodeType::router), 1));
  const std::size_t before = fabric.nodes().size();
  const auto port_count = static_cast<int>(at_most(in, 255, 2));
  Node& node = fabric.add_node(guid, type, in.get_text(), port_count);
  if (fabric.nodes().size() != before + 1) throw Malformed();  // the same GUID twice
  node.system_image_guid = in.get_uint(8);
  node.vendor_id = static_cast<std::uint32_t>(in.get_uint(4));
  node.device_id = static_cast<std::uint32_t>(in.get_uint(4));
  for (std::uint64_t n = at_most(in, 256, 2); n > 0; --n) read_port(in, fabric, guid);
  // A port numbered past the count grows the table: not what was written.
  if (fabric.nodes().back().port_count != port_count) throw Malformed();
}

}  // namespace

std::string fabric_snapshot(const Fabric& fabric, std::string_view tag) {
  std::string bytes(kMagic);
  bytes.append(tag).push_back('\n');
  base::ByteWriter out(bytes);
  out.put_uint(fabric.nodes().size(), 4);
  for (const Node& node : fabric.nodes()) {
    out.put_uint(node.guid, 8);
    out.put_uint(static_cast<std::uint8_t>(node.type), 1);
    out.put_uint(static_cast<std::uint64_t>(node.port_count), 2);
    out.put_text(node.description);
    out.put_uint(node.system_image_guid, 8);
    out.put_uint(node.vendor_id, 4);
    out.put_uint(node.device_id, 4);
    std::uint64_t present = 0;
    for (const Port& port : node.ports) present += port.present;
    out.put_uint(present, 2);
    for (std::size_t i = 0; i < node.ports.size(); ++i)
      if (node.ports[i].present) write_port(out, node.ports[i], static_cast<PortNumber>(i));
  }
  out.put_uint(fabric.links().size(), 4);
  for (const Link& link : fabric.links()) {
    for (const PortRef& end : {link.a, link.b}) {
      out.put_uint(fabric.index_of(end.node), 4);
      out.put_uint(end.port, 1);
    }
  }
  return bytes;
}

std::optional<Fabric> fabric_from_snapshot(std::string_view bytes, std::string_view tag) {
  if (!bytes.starts_with(kMagic)) return std::nullopt;
  bytes.remove_prefix(kMagic.size());
  if (!bytes.starts_with(tag) || bytes.size() == tag.size() || bytes[tag.size()] != '\n')
    return std::nullopt;
  bytes.remove_prefix(tag.size() + 1);
  try {
    base::ByteReader in(bytes);
    Fabric fabric;
    for (std::uint64_t n = in.get_uint(4); n > 0; --n) read_node(in, fabric);
    for (std::uint64_t n = in.get_uint(4); n > 0; --n) {
      PortRef ends[2];
      for (PortRef& end : ends) {
        end.node = fabric.nodes().at(in.get_uint(4)).guid;
        end.port = static_cast<PortNumber>(in.get_uint(1));
        if (!fabric.find_port(end)) throw Malformed();
      }
      if (fabric.connect(ends[0], ends[1]) != ConnectResult::added) throw Malformed();
    }
    if (!in.done()) return std::nullopt;
    return fabric;
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

}  // namespace ibpm
