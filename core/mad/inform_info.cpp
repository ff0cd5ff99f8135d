// SPDX-License-Identifier: MIT

#include "mad/inform_info.hpp"

#include <infiniband/mad.h>
#include <infiniband/umad_sa.h>

#include <algorithm>

namespace ibpm::mad {

namespace {

// InformInfo's fields, byte offsets (the IBA's InformInfo; OpenSM's ib_inform_info_t). libibmad
// defines none of them.
constexpr std::size_t kInformGid = 0;             // 16 bytes
constexpr std::size_t kInformLidRangeBegin = 16;  // 16 bits
constexpr std::size_t kInformLidRangeEnd = 18;    // 16 bits; 20-21 reserved
constexpr std::size_t kInformIsGeneric = 22;      // 8 bits
constexpr std::size_t kInformSubscribe = 23;      // 8 bits
constexpr std::size_t kInformType = 24;           // 16 bits
constexpr std::size_t kInformTrapNumber = 26;     // 16 bits (DeviceID when not generic)
constexpr std::size_t kInformQpn = 28;            // 24 bits, then 3 reserved, RespTimeValue 5 bits
constexpr std::size_t kInformRespTime = 31;       // the low 5 bits; byte 32 reserved
constexpr std::size_t kInformProducer = 33;       // 24 bits (VendorID when not generic)

// InformInfoRecord (OpenSM's ib_inform_info_record_t): SubscriberGID, Enum (16
// bits), 6 reserved bytes, InformInfo, 4 bytes of padding.
constexpr std::size_t kSubscriberEnum = 16;

// ComponentMask bit of InformInfoRecord:SubscriberGID (OpenSM's IB_IIR_COMPMASK_SUBSCRIBERGID).
constexpr std::uint64_t kSubscriberGidComponent = 1;

// Big-endian fields of `bytes` bytes.
void put_be(std::uint8_t* at, std::size_t bytes, std::uint32_t value) {
  for (std::size_t i = bytes; i-- > 0; value >>= 8) at[i] = static_cast<std::uint8_t>(value);
}

std::uint32_t get_be(const std::uint8_t* at, std::size_t bytes) {
  std::uint32_t value = 0;
  for (std::size_t i = 0; i < bytes; ++i) value = (value << 8) | at[i];
  return value;
}

InformInfo decode_inform_info_at(const std::uint8_t* at) {
  InformInfo info;
  std::copy_n(at + kInformGid, info.gid.size(), info.gid.begin());
  info.lid_range_begin = get_be(at + kInformLidRangeBegin, 2);
  info.lid_range_end = get_be(at + kInformLidRangeEnd, 2);
  info.is_generic = at[kInformIsGeneric] != 0;
  info.subscribe = at[kInformSubscribe] != 0;
  info.type = get_be(at + kInformType, 2);
  info.trap_number = get_be(at + kInformTrapNumber, 2);
  info.qpn = get_be(at + kInformQpn, 3);
  info.resp_time_value = at[kInformRespTime] & 0x1f;
  info.producer = get_be(at + kInformProducer, 3);
  return info;
}

MadQuery sa_request(unsigned sa_lid, MadMethod method, std::uint16_t attribute) {
  MadQuery query;
  query.lid = sa_lid;
  query.mgmt_class = MgmtClass::subnet_admin;
  query.method = method;
  query.attribute = attribute;
  return query;
}

}  // namespace

Gid make_gid(std::uint64_t prefix, Guid interface_id) {
  Gid gid{};
  mad_set_field64(gid.data(), 0, IB_GID_PREFIX_F, prefix);
  mad_set_field64(gid.data(), 0, IB_GID_GUID_F, interface_id);
  return gid;
}

Guid interface_id(const Gid& gid) {
  return mad_get_field64(const_cast<std::uint8_t*>(gid.data()), 0, IB_GID_GUID_F);
}

bool is_zero(const Gid& gid) {
  return std::all_of(gid.begin(), gid.end(), [](std::uint8_t b) { return b == 0; });
}

void encode_inform_info(const InformInfo& info, std::span<std::uint8_t, kInformInfoSize> out) {
  std::uint8_t* at = out.data();
  std::fill(out.begin(), out.end(), std::uint8_t{0});
  std::copy(info.gid.begin(), info.gid.end(), at + kInformGid);
  put_be(at + kInformLidRangeBegin, 2, info.lid_range_begin & 0xffff);
  put_be(at + kInformLidRangeEnd, 2, info.lid_range_end & 0xffff);
  at[kInformIsGeneric] = info.is_generic ? 1 : 0;
  at[kInformSubscribe] = info.subscribe ? 1 : 0;
  put_be(at + kInformType, 2, info.type & 0xffff);
  put_be(at + kInformTrapNumber, 2, info.trap_number & 0xffff);
  put_be(at + kInformQpn, 3, info.qpn & 0xffffff);
  at[kInformRespTime] = static_cast<std::uint8_t>(info.resp_time_value & 0x1f);
  put_be(at + kInformProducer, 3, info.producer & 0xffffff);
}

std::optional<InformInfo> decode_inform_info(std::span<const std::uint8_t> data) {
  if (data.size() < kInformInfoSize) return std::nullopt;
  return decode_inform_info_at(data.data());
}

MadQuery inform_info_query(unsigned sa_lid, const InformInfo& info) {
  // A Set of InformInfo selects nothing: no ComponentMask (OpenSM reads none).
  MadQuery query = sa_request(sa_lid, MadMethod::set, IB_SA_ATTR_INFORMINFO);
  encode_inform_info(info,
                     std::span<std::uint8_t, kInformInfoSize>(query.data.data(), kInformInfoSize));
  return query;
}

InformInfo generic_trap_subscription(unsigned trap_number, bool subscribe) {
  InformInfo info;
  info.trap_number = trap_number;
  info.subscribe = subscribe;
  return info;
}

MadQuery subscription_query(unsigned sa_lid, unsigned trap_number, bool subscribe) {
  return inform_info_query(sa_lid, generic_trap_subscription(trap_number, subscribe));
}

MadQuery inform_info_records_query(unsigned sa_lid, const std::optional<Gid>& subscriber) {
  MadQuery query = sa_request(sa_lid, MadMethod::get_table, UMAD_SA_ATTR_INFORM_INFO_REC);
  if (subscriber) {
    std::copy(subscriber->begin(), subscriber->end(), query.data.begin());
    query.component_mask = kSubscriberGidComponent;
  }
  return query;
}

std::vector<InformInfoRecord> decode_inform_info_records(std::span<const std::uint8_t> data,
                                                         std::size_t record_size) {
  std::vector<InformInfoRecord> records;
  // A record shorter than its fields cannot be read; one step would never end.
  if (record_size < kInformInfoInRecord + kInformInfoSize) return records;
  for (std::size_t at = 0; at + record_size <= data.size(); at += record_size) {
    const std::uint8_t* record = data.data() + at;
    InformInfoRecord entry;
    std::copy_n(record, entry.subscriber_gid.size(), entry.subscriber_gid.begin());
    if (is_zero(entry.subscriber_gid)) break;
    entry.subscriber_enum = get_be(record + kSubscriberEnum, 2);
    entry.info = decode_inform_info_at(record + kInformInfoInRecord);
    records.push_back(entry);
  }
  return records;
}

bool lists_subscription(const std::vector<InformInfoRecord>& records, const Gid& subscriber,
                        const InformInfo& wanted) {
  return std::any_of(records.begin(), records.end(), [&](const InformInfoRecord& record) {
    const InformInfo& info = record.info;
    return record.subscriber_gid == subscriber && info.gid == wanted.gid &&
           info.lid_range_begin == wanted.lid_range_begin &&
           info.lid_range_end == wanted.lid_range_end && info.is_generic == wanted.is_generic &&
           info.type == wanted.type && info.trap_number == wanted.trap_number &&
           info.producer == wanted.producer;
  });
}

}  // namespace ibpm::mad
