// SPDX-License-Identifier: MIT

#include "mad/sm_info.hpp"

#include <infiniband/mad.h>

#include <algorithm>

namespace ibpm::mad {

namespace {

constexpr std::size_t kSmInfoRecordSize = 32;  // LID, reserved, SMInfo (21 bytes), padding
constexpr std::size_t kSmInfoInRecord = 4;     // where SMInfo starts in the record

SmInfo decode_at(const std::uint8_t* data) {
  auto* raw = const_cast<std::uint8_t*>(data);
  SmInfo info;
  info.port_guid = mad_get_field64(raw, 0, IB_SMINFO_GUID_F);
  info.act_count = mad_get_field(raw, 0, IB_SMINFO_ACT_F);
  info.priority = mad_get_field(raw, 0, IB_SMINFO_PRIO_F);
  info.state = mad_get_field(raw, 0, IB_SMINFO_STATE_F);
  return info;
}

MadQuery smp(unsigned lid, std::uint16_t attribute) {
  MadQuery query;
  query.lid = lid;
  query.mgmt_class = MgmtClass::subnet;
  query.attribute = attribute;
  return query;
}

}  // namespace

MadQuery sm_info_query(unsigned lid) { return smp(lid, IB_ATTR_SMINFO); }

SmInfo decode_sm_info(const MadData& data) { return decode_at(data.data()); }

MadQuery sm_info_records_query(unsigned sa_lid) {
  MadQuery query;
  query.lid = sa_lid;
  query.mgmt_class = MgmtClass::subnet_admin;
  query.method = MadMethod::get_table;
  query.attribute = IB_SA_ATTR_SMINFORECORD;
  return query;
}

std::vector<SmInfoRecord> decode_sm_info_records(const MadData& data) {
  std::vector<SmInfoRecord> records;
  for (std::size_t at = 0; at + kSmInfoRecordSize <= data.size(); at += kSmInfoRecordSize) {
    SmInfoRecord record;
    record.lid = (unsigned{data[at]} << 8) | data[at + 1];
    record.info = decode_at(data.data() + at + kSmInfoInRecord);
    if (record.info.port_guid == 0) break;
    records.push_back(record);
  }
  return records;
}

MadQuery node_description_query(unsigned lid) { return smp(lid, IB_ATTR_NODE_DESC); }

std::string decode_node_description(const MadData& data) {
  const auto end = std::find(data.begin(), data.begin() + 64, std::uint8_t{0});
  return std::string(data.begin(), end);
}

}  // namespace ibpm::mad
