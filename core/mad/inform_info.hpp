// SPDX-License-Identifier: MIT
// Subscribing to traps at the SA: InformInfo (attribute 0x0003) sent in a SubnAdmSet, the copy
// the SA answers with, and the SA's InformInfoRecord table (attribute 0xF3) that lists who is
// subscribed. Layouts as the IBA gives them (InformInfo 36 bytes, InformInfoRecord 64 bytes a
// record), the same as OpenSM's ib_inform_info_t and ib_inform_info_record_t. libibmad has no
// InformInfo fields: the bytes are written here.
//
// OpenSM keeps a subscription under the InformInfo it was made with, the QPN replaced by the
// subscriber's source QP, and removes it only for a Set with subscribe 0 and the same GID or LID
// range, Type, IsGeneric, TrapNumber, QPN, RespTimeValue and ProducerType: unsubscribe with the
// InformInfo that subscribed, QPN 1 (the umad agents' QP1).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "fabric/types.hpp"
#include "mad/mad_engine.hpp"

namespace ibpm::mad {

// A GID as it stands in a MAD: 16 bytes, the subnet prefix then the interface ID, network order.
using Gid = std::array<std::uint8_t, 16>;

Gid make_gid(std::uint64_t prefix, Guid interface_id);
Guid interface_id(const Gid& gid);
bool is_zero(const Gid& gid);

constexpr std::size_t kInformInfoSize = 36;
constexpr std::size_t kInformInfoRecordSize = 64;
constexpr std::size_t kInformInfoInRecord = 24;  // where InformInfo starts in the record

// "All" in InformInfo's fields (the IBA's InformInfo; OpenSM's matching of a Notice to a
// subscription honours each): LIDRangeBegin 0xFFFF is every LID the manager knows, Type and
// TrapNumber 0xFFFF any, ProducerType 0xFFFFFF any.
constexpr unsigned kAllLids = 0xFFFF;
constexpr unsigned kAnyType = 0xFFFF;
constexpr std::uint32_t kAnyProducer = 0xFFFFFF;

struct InformInfo {
  Gid gid{};                              // the one port whose traps are wanted; zero: by LIDs
  unsigned lid_range_begin = kAllLids;    // used when gid is zero
  unsigned lid_range_end = 0;             // 0: just lid_range_begin
  bool is_generic = true;                 // generic traps, not a vendor's
  bool subscribe = true;                  // false: unsubscribe
  unsigned type = kAnyType;               // 0 fatal .. 4 informational, 0xFFFF any
  unsigned trap_number = 0;               // TrapNumber (generic) or DeviceID (vendor)
  std::uint32_t qpn = 1;                  // 24 bits: where Reports go
  unsigned resp_time_value = 0;           // 5 bits
  std::uint32_t producer = kAnyProducer;  // ProducerType (generic) or VendorID, 24 bits

  bool operator==(const InformInfo&) const = default;
};

struct InformInfoRecord {
  Gid subscriber_gid{};
  unsigned subscriber_enum = 0;
  InformInfo info;
};

// The 36 bytes of InformInfo at the start of `out`; fields wider than the layout's are cut to it.
void encode_inform_info(const InformInfo& info, std::span<std::uint8_t, kInformInfoSize> out);
// nullopt when `data` is shorter than 36 bytes.
std::optional<InformInfo> decode_inform_info(std::span<const std::uint8_t> data);

// SubnAdmSet(InformInfo) to the SA at `sa_lid` carrying `info`.
MadQuery inform_info_query(unsigned sa_lid, const InformInfo& info);
// The same for one generic trap (64, 65, 128, 144, 145...) from all LIDs, any type and producer,
// QPN 1: subscribing, or with subscribe false removing that subscription.
MadQuery subscription_query(unsigned sa_lid, unsigned trap_number, bool subscribe);
// The InformInfo subscription_query sends.
InformInfo generic_trap_subscription(unsigned trap_number, bool subscribe);

// SubnAdmGetTable(InformInfoRecord): the subscriptions of `subscriber` (ComponentMask
// SubscriberGID), or every one the SA shows this requester when none is given.
MadQuery inform_info_records_query(unsigned sa_lid, const std::optional<Gid>& subscriber);
// The whole records in `data` (an answer's first segment holds 3), in `record_size` steps (the
// answer's AttributeOffset times 8); a record of subscriber GID zero ends the table.
std::vector<InformInfoRecord> decode_inform_info_records(
    std::span<const std::uint8_t> data, std::size_t record_size = kInformInfoRecordSize);

// Whether `records` hold the subscription `wanted` made by `subscriber`: the fields the SA keeps
// as sent (its QPN is the source QP, so it is not compared).
bool lists_subscription(const std::vector<InformInfoRecord>& records, const Gid& subscriber,
                        const InformInfo& wanted);

}  // namespace ibpm::mad
