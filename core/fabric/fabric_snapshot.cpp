// SPDX-License-Identifier: MIT

#include "fabric/fabric_snapshot.hpp"

#include <cstdint>
#include <stdexcept>

namespace ibpm {
namespace {

// Bumped whenever the layout below changes: an older snapshot is then made again.
constexpr std::string_view kMagic = "ibpm fabric snapshot 1\n";

// Flags of a present port: which optional fields follow.
constexpr std::uint8_t kHasGuid = 1, kHasLid = 2, kHasWidth = 4, kHasSpeed = 8;

class Writer {
 public:
  explicit Writer(std::string& out) : out_(out) {}
  // Little-endian whatever the machine, so a state folder shared between machines stays readable.
  void number(std::uint64_t value, int bytes) {
    for (int i = 0; i < bytes; ++i) out_.push_back(static_cast<char>((value >> (8 * i)) & 0xff));
  }
  void text(std::string_view s) {
    number(s.size(), 4);
    out_.append(s);
  }

 private:
  std::string& out_;
};

struct Malformed : std::runtime_error {
  Malformed() : std::runtime_error("not a whole fabric snapshot") {}
};

class Reader {
 public:
  explicit Reader(std::string_view bytes) : rest_(bytes) {}
  std::uint64_t number(int bytes) {
    if (rest_.size() < static_cast<std::size_t>(bytes)) throw Malformed();
    std::uint64_t value = 0;
    for (int i = 0; i < bytes; ++i)
      value |= std::uint64_t{static_cast<unsigned char>(rest_[i])} << (8 * i);
    rest_.remove_prefix(bytes);
    return value;
  }
  // A value that must be at most `max` (an enumeration's last member, a count).
  std::uint64_t at_most(std::uint64_t max, int bytes) {
    const std::uint64_t value = number(bytes);
    if (value > max) throw Malformed();
    return value;
  }
  std::string text() {
    const std::uint64_t size = number(4);
    if (size > rest_.size()) throw Malformed();
    std::string s(rest_.substr(0, size));
    rest_.remove_prefix(size);
    return s;
  }
  bool done() const { return rest_.empty(); }

 private:
  std::string_view rest_;
};

template <typename Enum>
std::uint32_t members_up_to(Enum last) {
  return static_cast<std::uint32_t>((std::uint64_t{1} << (static_cast<unsigned>(last) + 1)) - 1);
}

template <typename Enum>
EnumSet<Enum> set_of(Reader& in, Enum last) {
  const auto bits = static_cast<std::uint32_t>(in.at_most(members_up_to(last), 4));
  EnumSet<Enum> set;
  for (unsigned i = 0; i <= static_cast<unsigned>(last); ++i)
    if (bits & (1u << i)) set.insert(static_cast<Enum>(i));
  if (set.bits() != bits) throw Malformed();  // a bit no member has
  return set;
}

void write_port(Writer& out, const Port& port, PortNumber number) {
  out.number(number, 1);
  out.number((port.guid ? kHasGuid : 0) | (port.lid ? kHasLid : 0) | (port.width ? kHasWidth : 0) |
                 (port.speed ? kHasSpeed : 0),
             1);
  if (port.guid) out.number(*port.guid, 8);
  if (port.lid) out.number(*port.lid, 2);
  out.number(port.lmc, 1);
  out.number(static_cast<std::uint8_t>(port.state), 1);
  if (port.width) out.number(static_cast<std::uint8_t>(*port.width), 1);
  if (port.speed) out.number(static_cast<std::uint8_t>(*port.speed), 1);
  out.number(port.widths_enabled.bits(), 4);
  out.number(port.speeds_enabled.bits(), 4);
  out.text(port.label);
}

void read_port(Reader& in, Fabric& fabric, Guid node) {
  Port& port = fabric.port({node, static_cast<PortNumber>(in.number(1))});
  const std::uint64_t flags = in.at_most(kHasGuid | kHasLid | kHasWidth | kHasSpeed, 1);
  if (flags & kHasGuid) port.guid = in.number(8);
  if (flags & kHasLid) port.lid = static_cast<Lid>(in.number(2));
  port.lmc = static_cast<std::uint8_t>(in.number(1));
  port.state = static_cast<PortState>(in.at_most(static_cast<unsigned>(PortState::active), 1));
  if (flags & kHasWidth)
    port.width = static_cast<LinkWidth>(in.at_most(static_cast<unsigned>(LinkWidth::x12), 1));
  if (flags & kHasSpeed)
    port.speed = static_cast<LinkSpeed>(in.at_most(static_cast<unsigned>(LinkSpeed::xdr), 1));
  port.widths_enabled = set_of(in, LinkWidth::x12);
  port.speeds_enabled = set_of(in, LinkSpeed::xdr);
  port.label = in.text();
}

void read_node(Reader& in, Fabric& fabric) {
  const Guid guid = in.number(8);
  const auto type = static_cast<NodeType>(in.at_most(static_cast<unsigned>(NodeType::router), 1));
  const std::size_t before = fabric.nodes().size();
  const auto port_count = static_cast<int>(in.at_most(255, 2));
  Node& node = fabric.add_node(guid, type, in.text(), port_count);
  if (fabric.nodes().size() != before + 1) throw Malformed();  // the same GUID twice
  node.system_image_guid = in.number(8);
  node.vendor_id = static_cast<std::uint32_t>(in.number(4));
  node.device_id = static_cast<std::uint32_t>(in.number(4));
  for (std::uint64_t n = in.at_most(256, 2); n > 0; --n) read_port(in, fabric, guid);
  // A port numbered past the count grows the table: not what was written.
  if (fabric.nodes().back().port_count != port_count) throw Malformed();
}

}  // namespace

std::string fabric_snapshot(const Fabric& fabric, std::string_view tag) {
  std::string bytes(kMagic);
  bytes.append(tag).push_back('\n');
  Writer out(bytes);
  out.number(fabric.nodes().size(), 4);
  for (const Node& node : fabric.nodes()) {
    out.number(node.guid, 8);
    out.number(static_cast<std::uint8_t>(node.type), 1);
    out.number(static_cast<std::uint64_t>(node.port_count), 2);
    out.text(node.description);
    out.number(node.system_image_guid, 8);
    out.number(node.vendor_id, 4);
    out.number(node.device_id, 4);
    std::uint64_t present = 0;
    for (const Port& port : node.ports) present += port.present;
    out.number(present, 2);
    for (std::size_t i = 0; i < node.ports.size(); ++i)
      if (node.ports[i].present) write_port(out, node.ports[i], static_cast<PortNumber>(i));
  }
  out.number(fabric.links().size(), 4);
  for (const Link& link : fabric.links()) {
    for (const PortRef& end : {link.a, link.b}) {
      out.number(fabric.index_of(end.node), 4);
      out.number(end.port, 1);
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
    Reader in(bytes);
    Fabric fabric;
    for (std::uint64_t n = in.number(4); n > 0; --n) read_node(in, fabric);
    for (std::uint64_t n = in.number(4); n > 0; --n) {
      PortRef ends[2];
      for (PortRef& end : ends) {
        end.node = fabric.nodes().at(in.number(4)).guid;
        end.port = static_cast<PortNumber>(in.number(1));
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
