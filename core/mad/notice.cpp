// SPDX-License-Identifier: MIT

#include "mad/notice.hpp"

#include <infiniband/mad.h>
#include <infiniband/umad_sm.h>
#include <infiniband/umad_types.h>

#include <algorithm>
#include <string>
#include <utility>

namespace ibpm::mad {

namespace {

// Fields of the Notice that libibmad does not define, byte offsets in the Notice (DataDetails
// start at byte 10; OpenSM's ib_mad_notice_attr_t data_details):
// - traps 64-67: 6 reserved bytes, then the GID (ntc_64_67);
// - trap 144: reserved 16 bits, LID (IB_NOTICE_DATA_144_LID_F), a reserved byte, LocalChanges
//   (its low bit), CapabilityMask (IB_NOTICE_DATA_144_CAPMASK_F), ChangeFlags, CapabilityMask2
//   (ntc_144);
// - trap 145: reserved 16 bits, LID (where trap 144's is, so IB_NOTICE_DATA_144_LID_F reads it),
//   reserved 16 bits, the new SystemImageGUID (ntc_145).
constexpr std::size_t kTrap64Gid = kNoticeDetailsOffset + 6;
constexpr std::size_t kTrap144LocalChanges = kNoticeDetailsOffset + 5;
constexpr std::size_t kTrap144ChangeFlags = kNoticeDetailsOffset + 10;
constexpr std::size_t kTrap144CapabilityMask2 = kNoticeDetailsOffset + 12;
constexpr std::size_t kTrap145Guid = kNoticeDetailsOffset + 6;

// ChangeFlags: the IBA defines the low 6 bits (OpenSM's TRAP_144_MASK_*), the rest reserved.
constexpr unsigned kChangeFlagsMask = 0x3f;

using NoticeCopy = std::array<std::uint8_t, kNoticeSize>;

unsigned notice_be16(const std::uint8_t* at) { return (unsigned{at[0]} << 8) | at[1]; }

std::uint64_t notice_be64(const std::uint8_t* at) {
  std::uint64_t value = 0;
  for (int i = 0; i < 8; ++i) value = (value << 8) | at[i];
  return value;
}

void say_why(std::string* error, std::string why) {
  if (error) *error = std::move(why);
}

// The details of the generic traps read here; nullopt when they say_why what cannot be.
std::optional<TrapDetails> trap_details_of(NoticeCopy& raw, unsigned trap, std::string* error) {
  std::uint8_t* n = raw.data();
  switch (trap) {
    case UMAD_SM_GID_IN_SERVICE_TRAP:
    case UMAD_SM_GID_OUT_OF_SERVICE_TRAP: {
      GidInService gid_event;
      std::copy_n(n + kTrap64Gid, gid_event.gid.size(), gid_event.gid.begin());
      gid_event.in_service = trap == UMAD_SM_GID_IN_SERVICE_TRAP;
      if (is_zero(gid_event.gid)) {
        say_why(error, "trap " + std::to_string(trap) + " without a GID");
        return std::nullopt;
      }
      return gid_event;
    }
    case UMAD_SM_LINK_STATE_CHANGED_TRAP: {
      LinkStateChange change;
      change.lid = mad_get_field(n, 0, IB_NOTICE_DATA_LID_F);
      if (change.lid == 0) {
        say_why(error, "trap 128 without a switch LID");
        return std::nullopt;
      }
      return change;
    }
    case UMAD_SM_LOCAL_CHANGES_TRAP: {
      LocalChanges change;
      change.lid = mad_get_field(n, 0, IB_NOTICE_DATA_144_LID_F);
      change.other_local_changes = (n[kTrap144LocalChanges] & 0x01) != 0;
      change.capability_mask = mad_get_field(n, 0, IB_NOTICE_DATA_144_CAPMASK_F);
      change.change_flags = notice_be16(n + kTrap144ChangeFlags) & kChangeFlagsMask;
      change.capability_mask2 = notice_be16(n + kTrap144CapabilityMask2);
      if (change.lid == 0) {
        say_why(error, "trap 144 without a LID");
        return std::nullopt;
      }
      return change;
    }
    case UMAD_SM_SYS_IMG_GUID_CHANGED_TRAP: {
      SystemImageGuidChange change;
      change.lid = mad_get_field(n, 0, IB_NOTICE_DATA_144_LID_F);
      change.system_image_guid = notice_be64(n + kTrap145Guid);
      if (change.lid == 0) {
        say_why(error, "trap 145 without a LID");
        return std::nullopt;
      }
      return change;
    }
    default:
      return OtherTrap{};
  }
}

// Whether the MAD's common header is a SubnAdmReport(Notice).
bool is_report_header(void* mad, std::string* error) {
  if (mad_get_field(mad, 0, IB_MAD_BASEVER_F) != UMAD_BASE_VERSION) {
    say_why(error, "not a MAD of base version 1");
    return false;
  }
  if (mad_get_field(mad, 0, IB_MAD_MGMTCLASS_F) != UMAD_CLASS_SUBN_ADM) {
    say_why(error, "not an SA MAD");
    return false;
  }
  if (mad_get_field(mad, 0, IB_MAD_RESPONSE_F) != 0 ||
      mad_get_field(mad, 0, IB_MAD_METHOD_F) != UMAD_METHOD_REPORT) {
    say_why(error, "not a Report");
    return false;
  }
  if (mad_get_field(mad, 0, IB_MAD_ATTRID_F) != UMAD_ATTR_NOTICE) {
    say_why(error, "a Report of another attribute than Notice");
    return false;
  }
  return true;
}

}  // namespace

std::optional<Notice> decode_notice(std::span<const std::uint8_t> data, std::string* error) {
  if (data.size() < kNoticeSize) {
    say_why(error, "Notice cut short: " + std::to_string(data.size()) + " of 80 bytes");
    return std::nullopt;
  }
  // libibmad reads through a non-const pointer: a copy of exactly the Notice, which every field
  // read below lies within.
  NoticeCopy raw;
  std::copy_n(data.begin(), raw.size(), raw.begin());
  std::uint8_t* n = raw.data();

  Notice notice;
  notice.is_generic = mad_get_field(n, 0, IB_NOTICE_IS_GENERIC_F) != 0;
  notice.type = mad_get_field(n, 0, IB_NOTICE_TYPE_F);
  notice.producer = mad_get_field(n, 0, IB_NOTICE_PRODUCER_F);
  notice.trap_number = mad_get_field(n, 0, IB_NOTICE_TRAP_NUMBER_F);
  notice.issuer_lid = mad_get_field(n, 0, IB_NOTICE_ISSUER_LID_F);
  notice.toggle = mad_get_field(n, 0, IB_NOTICE_TOGGLE_F) != 0;
  notice.count = mad_get_field(n, 0, IB_NOTICE_COUNT_F);
  mad_get_array(n, 0, IB_NOTICE_DATA_DETAILS_F, notice.data_details.data());
  std::copy_n(n + kNoticeIssuerGidOffset, notice.issuer_gid.size(), notice.issuer_gid.begin());

  if (notice.is_generic) {
    auto details = trap_details_of(raw, notice.trap_number, error);
    if (!details) return std::nullopt;
    notice.details = *details;
  }
  return notice;
}

std::optional<Report> decode_report(std::span<const std::uint8_t> mad, std::string* error) {
  if (mad.size() < kMadSize) {
    say_why(error, "Report cut short: " + std::to_string(mad.size()) + " of 256 bytes");
    return std::nullopt;
  }
  Mad copy;
  std::copy_n(mad.begin(), copy.size(), copy.begin());
  if (!is_report_header(copy.data(), error)) return std::nullopt;
  auto notice = decode_notice(std::span(copy).subspan(IB_SA_DATA_OFFS), error);
  if (!notice) return std::nullopt;
  return Report{mad_get_field64(copy.data(), 0, IB_MAD_TRID_F), *notice};
}

std::optional<Mad> encode_report_response(std::span<const std::uint8_t> report_mad) {
  if (report_mad.size() < kMadSize) return std::nullopt;
  Mad response;
  std::copy_n(report_mad.begin(), response.size(), response.begin());
  if (!is_report_header(response.data(), nullptr)) return std::nullopt;
  // The Report's headers and Notice as they came (transaction ID, attribute, modifier, class
  // version, SA header), as a response of status 0. libibmad's method field is its low 7 bits:
  // ReportResp is Report with the response bit.
  mad_set_field(response.data(), 0, IB_MAD_METHOD_F, UMAD_METHOD_REPORT_RESP & 0x7f);
  mad_set_field(response.data(), 0, IB_MAD_RESPONSE_F, 1);
  mad_set_field(response.data(), 0, IB_MAD_STATUS_F, 0);
  return response;
}

}  // namespace ibpm::mad
