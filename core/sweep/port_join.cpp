// SPDX-License-Identifier: MIT

#include "sweep/port_join.hpp"

#include <infiniband/mad.h>

#include <algorithm>
#include <map>
#include <sstream>

#include "fabric/node_name_map.hpp"
#include "mad/port_info.hpp"
#include "mad/smp.hpp"

namespace ibpm::sweep {

namespace {

// NodeRecord: LID (2 bytes), reserved (2), NodeInfo (40), NodeDescription (64).
constexpr std::size_t kNodeInfoInRecord = 4;
constexpr std::size_t kDescriptionInRecord = 44;
constexpr std::size_t kPortGuidInRecord = kNodeInfoInRecord + 20;
constexpr std::uint64_t kNodeRecordPortGuid = std::uint64_t{1} << 8;  // component mask bit
// LinkRecord: FromLID (2), FromPort (1), ToPort (1), ToLID (2), reserved (2).
constexpr std::size_t kLinkRecordSize = 8;
constexpr std::uint64_t kLinkRecordFromLid = 1;

std::string hex(Guid guid) {
  std::ostringstream text;
  text << "0x" << std::hex << guid;
  return text.str();
}

unsigned u16(const mad::MadData& data, std::size_t at) {
  return (unsigned{data[at]} << 8) | data[at + 1];
}

mad::MadQuery sa_table(unsigned sa_lid, std::uint16_t attribute, std::uint64_t mask) {
  mad::MadQuery query;
  query.lid = sa_lid;
  query.mgmt_class = mad::MgmtClass::subnet_admin;
  query.method = mad::MadMethod::get_table;
  query.attribute = attribute;
  query.component_mask = mask;
  return query;
}

mad::MadQuery node_record_query(unsigned sa_lid, Guid port_guid) {
  mad::MadQuery query = sa_table(sa_lid, IB_SA_ATTR_NODERECORD, kNodeRecordPortGuid);
  for (int i = 0; i < 8; ++i)
    query.data[kPortGuidInRecord + i] = static_cast<std::uint8_t>(port_guid >> (56 - 8 * i));
  return query;
}

mad::MadQuery link_records_query(unsigned sa_lid, unsigned from_lid) {
  mad::MadQuery query = sa_table(sa_lid, IB_SA_ATTR_LINKRECORD, kLinkRecordFromLid);
  query.data[0] = static_cast<std::uint8_t>(from_lid >> 8);
  query.data[1] = static_cast<std::uint8_t>(from_lid);
  return query;
}

// A description as the dump can carry it: printable, no quote (untrusted bytes).
std::string clean_description(const mad::MadData& data, std::size_t at) {
  std::string text;
  for (std::size_t i = at; i < at + 64 && data[i]; ++i) {
    const char c = static_cast<char>(data[i]);
    text += (c < 0x20 || c == 0x7f || c == '"') ? ' ' : c;
  }
  return text;
}

// What the SA said of one port GUID.
struct Found {
  Guid port_guid = 0;
  unsigned lid = 0;
  mad::NodeInfo info;
  Guid system_image_guid = 0;
  std::uint32_t vendor_id = 0, device_id = 0;
  std::string description;
  std::vector<std::pair<PortNumber, std::pair<unsigned, PortNumber>>> links;  // port -> LID, port
};

// Who holds LID `lid` in the fabric: a switch (its port 0) or a CA port.
std::map<unsigned, Guid> nodes_by_lid(const Fabric& fabric) {
  std::map<unsigned, Guid> by_lid;
  for (const Node& node : fabric.nodes())
    for (const Port& port : node.ports)
      if (port.present && port.lid) by_lid.emplace(*port.lid, node.guid);
  return by_lid;
}

bool holds_guid(const Fabric& fabric, Guid guid) {
  if (fabric.find(guid)) return true;
  for (const Node& node : fabric.nodes())
    for (const Port& port : node.ports)
      if (port.present && port.guid == guid) return true;
  return false;
}

}  // namespace

PortJoin learn_ports(mad::MadEngine& engine, const mad::EngineOptions& options, unsigned sa_lid,
                     const Fabric& fabric, const std::vector<Guid>& port_guids) {
  PortJoin join;
  std::vector<Found> found;
  std::vector<mad::MadQuery> queries;
  for (Guid guid : port_guids) {
    if (holds_guid(fabric, guid) || std::any_of(found.begin(), found.end(), [&](const Found& f) {
          return f.port_guid == guid;
        }))
      continue;
    found.emplace_back();
    found.back().port_guid = guid;
    queries.push_back(node_record_query(sa_lid, guid));
  }
  if (queries.empty()) return join;
  if (!mad::is_unicast_lid(sa_lid)) {
    join.notes.push_back("port " + hex(port_guids.front()) +
                         " not learnt: the local port knows no SM to ask (SMLID 0)");
    return join;
  }
  // 1. The NodeRecords: LID, NodeInfo, description.
  std::vector<mad::MadReply> replies = engine.run(queries, options);
  std::vector<Found> known;
  for (std::size_t i = 0; i < found.size(); ++i) {
    Found& f = found[i];
    const mad::MadReply& reply = replies[i];
    if (!reply.ok()) {
      join.notes.push_back("port " + hex(f.port_guid) +
                           " not learnt: the SA's NodeRecord: " + mad::describe_failure(reply));
      continue;
    }
    f.lid = u16(reply.data, 0);
    mad::MadData info{};
    std::copy_n(reply.data.begin() + kNodeInfoInRecord, 40, info.begin());
    f.info = mad::decode_node_info(info);
    auto* raw = info.data();
    f.system_image_guid = mad_get_field64(raw, 0, IB_NODE_SYSTEM_GUID_F);
    f.vendor_id = mad_get_field(raw, 0, IB_NODE_VENDORID_F);
    f.device_id = mad_get_field(raw, 0, IB_NODE_DEVID_F);
    f.description = clean_description(reply.data, kDescriptionInRecord);
    if (!mad::is_unicast_lid(f.lid) || f.info.node_guid == 0 || f.info.port_guid != f.port_guid ||
        f.info.type == NodeType::unknown || f.info.ports == 0 || f.info.ports > 254) {
      join.notes.push_back("port " + hex(f.port_guid) + " not learnt: the SA has no usable record");
      continue;
    }
    if (fabric.find(f.info.node_guid)) {
      join.notes.push_back("port " + hex(f.port_guid) + " not learnt: its node " +
                           hex(f.info.node_guid) + " is in the topology already");
      continue;
    }
    known.push_back(std::move(f));
  }
  if (known.empty()) return join;
  // 2. The LinkRecords from each LID: where its cables lead.
  queries.clear();
  for (const Found& f : known) queries.push_back(link_records_query(sa_lid, f.lid));
  replies = engine.run(queries, options);
  for (std::size_t i = 0; i < known.size(); ++i) {
    Found& f = known[i];
    if (!replies[i].ok()) {
      join.notes.push_back("port " + hex(f.port_guid) +
                           ": the SA's LinkRecords: " + mad::describe_failure(replies[i]));
      continue;
    }
    const mad::MadData& data = replies[i].data;
    for (std::size_t at = 0; at + kLinkRecordSize <= data.size(); at += kLinkRecordSize) {
      if (u16(data, at) != f.lid) break;  // the records end (zero padding)
      const PortNumber from_port = data[at + 2];
      const unsigned to_lid = u16(data, at + 4);
      if (from_port == 0 || from_port > f.info.ports || !mad::is_unicast_lid(to_lid)) continue;
      f.links.push_back({from_port, {to_lid, data[at + 3]}});
    }
    if (f.links.size() == data.size() / kLinkRecordSize)
      join.notes.push_back("port " + hex(f.port_guid) + ": more than " +
                           std::to_string(f.links.size()) +
                           " cables; the others at the next discovery");
  }
  // 3. The PortInfo of each cabled port (and a switch's port 0, whose CapabilityMask applies).
  queries.clear();
  for (const Found& f : known) {
    if (f.info.type == NodeType::sw) queries.push_back(mad::port_info_query(f.lid, 0));
    for (const auto& link : f.links) queries.push_back(mad::port_info_query(f.lid, link.first));
  }
  replies = engine.run(queries, options);
  const std::map<unsigned, Guid> by_lid = nodes_by_lid(fabric);
  std::size_t next = 0;
  for (const Found& f : known) {
    JoinedNode joined;
    Node& node = joined.node;
    node.guid = f.info.node_guid;
    node.type = f.info.type;
    node.description = f.description;
    node.system_image_guid = f.system_image_guid;
    node.vendor_id = f.vendor_id;
    node.device_id = f.device_id;
    node.port_count = static_cast<int>(f.info.ports);
    node.ports.resize(f.info.ports + 1);
    for (std::size_t n = 0; n < node.ports.size(); ++n)
      node.ports[n].number = static_cast<PortNumber>(n);
    const mad::MadReply* capability = nullptr;
    if (f.info.type == NodeType::sw) {
      capability = &replies[next++];
      Port& zero = node.ports[0];
      zero.present = true;
      zero.guid = f.port_guid;
      zero.lid = static_cast<Lid>(f.lid);
    } else {
      Port& own = node.ports[f.info.local_port <= f.info.ports ? f.info.local_port : 0];
      own.present = true;
      own.guid = f.port_guid;
      own.lid = static_cast<Lid>(f.lid);
    }
    for (const auto& [port_number, far] : f.links) {
      const mad::MadReply& reply = replies[next++];
      Port& port = node.ports[port_number];
      port.present = true;
      if (reply.ok())
        mad::decode_port_info(reply.data,
                              capability && capability->ok() ? capability->data : reply.data, port);
      const auto holder = by_lid.find(far.first);
      if (holder == by_lid.end()) {
        join.notes.push_back(node.description + "[" + std::to_string(port_number) +
                             "]: its far end (LID " + std::to_string(far.first) +
                             ") is not in the topology: left to the next discovery");
        continue;
      }
      joined.cables.push_back({port_number, PortRef{holder->second, far.second}});
    }
    join.joined.push_back(std::move(joined));
  }
  return join;
}

bool add_joined(Fabric& fabric, const JoinedNode& joined) {
  const Node& source = joined.node;
  if (fabric.find(source.guid)) return false;
  Node& node = fabric.add_node(source.guid, source.type, source.description, source.port_count);
  node.system_image_guid = source.system_image_guid;
  node.vendor_id = source.vendor_id;
  node.device_id = source.device_id;
  for (const Port& port : source.ports) {
    if (!port.present) continue;
    Port& mine = fabric.port({source.guid, port.number});
    const std::optional<std::size_t> link = mine.link;
    mine = port;
    mine.link = link;
  }
  for (const auto& [number, far] : joined.cables) {
    const Node* peer = fabric.find(far.node);
    if (!peer || far.port == 0 || far.port > peer->port_count) continue;
    const Port& mine = *fabric.find_port({source.guid, number});
    Port& theirs = fabric.port(far);
    if (fabric.remote(far))
      continue;  // cabled elsewhere in the topology: the SA's view is newer,
                 // but the next discovery decides
    theirs.state = mine.state;
    theirs.width = mine.width;
    theirs.speed = mine.speed;
    fabric.connect({source.guid, number}, far);
  }
  return true;
}

std::string describe_joined(const Fabric& fabric, const JoinedNode& joined,
                            const NodeNameMap* names) {
  const Node& node = joined.node;
  Guid port_guid = node.guid;
  if (node.type != NodeType::sw)
    for (const Port& port : node.ports)
      if (port.present && port.guid) port_guid = *port.guid;
  std::string text = display_name(node, names) +
                     (node.type == NodeType::sw ? " (switch " : " (port ") + hex(port_guid) + ")";
  std::string cables;
  for (const auto& [number, far] : joined.cables)
    if (fabric.remote(far) == PortRef{node.guid, number})
      cables += (cables.empty() ? "" : ", ") + port_name(fabric, {node.guid, number}, names) +
                " <-> " + port_name(fabric, far, names);
  return text + (cables.empty() ? ", no cable to the known fabric" : ": " + cables);
}

}  // namespace ibpm::sweep
