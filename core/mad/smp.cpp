// SPDX-License-Identifier: MIT

#include "mad/smp.hpp"

#include <infiniband/mad.h>

#include "mad/port_info.hpp"

namespace ibpm::mad {

namespace {

MadQuery smp_query(unsigned lid, std::uint16_t attribute, std::uint32_t modifier) {
  MadQuery query;
  query.lid = lid;
  query.mgmt_class = MgmtClass::subnet;
  query.attribute = attribute;
  query.modifier = modifier;
  return query;
}

NodeType node_type_of(unsigned code) {
  switch (code) {
    case 1:
      return NodeType::ca;
    case 2:
      return NodeType::sw;
    case 3:
      return NodeType::router;
    default:
      return NodeType::unknown;
  }
}

}  // namespace

MadQuery node_info_query(unsigned lid) { return smp_query(lid, IB_ATTR_NODE_INFO, 0); }

NodeInfo decode_node_info(const MadData& data) {
  auto* raw = const_cast<std::uint8_t*>(data.data());
  NodeInfo info;
  info.node_guid = mad_get_field64(raw, 0, IB_NODE_GUID_F);
  info.port_guid = mad_get_field64(raw, 0, IB_NODE_PORT_GUID_F);
  info.type = node_type_of(mad_get_field(raw, 0, IB_NODE_TYPE_F));
  info.ports = mad_get_field(raw, 0, IB_NODE_NPORTS_F);
  info.local_port = mad_get_field(raw, 0, IB_NODE_LOCAL_PORT_F);
  return info;
}

MadQuery port_info_query(unsigned lid, unsigned port) {
  return smp_query(lid, IB_ATTR_PORT_INFO, port);
}

void decode_port_info(const MadData& info, const MadData& capability_source, Port& port) {
  apply_port_info(port, info.data(), nullptr, capability_source.data());
}

MadQuery switch_info_query(unsigned lid) { return smp_query(lid, IB_ATTR_SWITCH_INFO, 0); }

unsigned decode_linear_fdb_top(const MadData& data) {
  auto* raw = const_cast<std::uint8_t*>(data.data());
  return mad_get_field(raw, 0, IB_SW_LINEAR_FDB_TOP_F);
}

MadQuery lft_block_query(unsigned lid, unsigned block) {
  return smp_query(lid, IB_ATTR_LINEARFORWTBL, block);
}

}  // namespace ibpm::mad
