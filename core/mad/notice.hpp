// SPDX-License-Identifier: MIT
// The events the SA forwards: a Notice (attribute 0x0002, 80 bytes, as the IBA lays it out and
// OpenSM's ib_mad_notice_attr_t repeats it) carried in a SubnAdmReport, the details of the traps
// the listener acts on, and the SubnAdmReportResp every Report must be answered with (the same
// transaction ID, the Notice echoed, as rdma-core's srp_daemon answers). Read with libibmad's
// IB_NOTICE_* fields where it has them.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <variant>

#include "fabric/types.hpp"
#include "mad/inform_info.hpp"
#include "mad/mad_engine.hpp"

namespace ibpm::mad {

constexpr std::size_t kNoticeSize = 80;
constexpr std::size_t kNoticeDetailsSize = 54;
constexpr std::size_t kNoticeDetailsOffset = 10;  // DataDetails in the Notice
constexpr std::size_t kNoticeIssuerGidOffset = 64;

// Notice:Type.
enum class NoticeType : unsigned {
  fatal = 0,
  urgent = 1,
  security = 2,
  subnet_management = 3,
  informational = 4,
  empty = 0x7f,
};

// Traps 64 and 65: a port's GID came into or went out of service (issued by the SM).
struct GidInService {
  Gid gid{};
  bool in_service = true;  // 64 true, 65 false
};

// Trap 128: the link state of at least one port of the switch at `lid` changed; the port is not
// said.
struct LinkStateChange {
  unsigned lid = 0;
};

// Trap 144: the port at `lid` changed its capability mask, or something that `change_flags`
// says.
struct LocalChanges {
  unsigned lid = 0;
  bool other_local_changes = false;  // a change the flags do not say (local_changes bit)
  std::uint32_t capability_mask = 0;
  unsigned change_flags = 0;  // the low bits of ChangeFlags, as the constants below
  unsigned capability_mask2 = 0;

  static constexpr unsigned kNodeDescription = 0x01;
  static constexpr unsigned kLinkWidthEnabled = 0x02;
  static constexpr unsigned kLinkSpeedEnabled = 0x04;
  static constexpr unsigned kSmPriority = 0x08;
  static constexpr unsigned kHierarchyInfo = 0x10;
  static constexpr unsigned kCapabilityMask2 = 0x20;

  bool node_description_changed() const { return (change_flags & kNodeDescription) != 0; }
  bool link_width_enabled_changed() const { return (change_flags & kLinkWidthEnabled) != 0; }
  bool link_speed_enabled_changed() const { return (change_flags & kLinkSpeedEnabled) != 0; }
};

// Trap 145: the node at `lid` has a new system image GUID.
struct SystemImageGuidChange {
  unsigned lid = 0;
  Guid system_image_guid = 0;
};

// A trap the codec does not read (any other number, or a vendor's notice): its raw details stay
// in Notice::data_details.
struct OtherTrap {};

using TrapDetails =
    std::variant<OtherTrap, GidInService, LinkStateChange, LocalChanges, SystemImageGuidChange>;

struct Notice {
  bool is_generic = true;
  unsigned type = 0;           // NoticeType's values, 7 bits
  std::uint32_t producer = 0;  // ProducerType (1 CA, 2 switch, 3 router, 4 class manager)
                               // or VendorID, 24 bits
  unsigned trap_number = 0;    // TrapNumber, or DeviceID when not generic
  unsigned issuer_lid = 0;
  bool toggle = false;
  unsigned count = 0;  // 15 bits
  std::array<std::uint8_t, kNoticeDetailsSize> data_details{};
  Gid issuer_gid{};
  TrapDetails details;  // read from data_details for generic traps 64, 65, 128, 144, 145
};

// The Notice at the start of `data` (a Report's SA data, from byte 56 of the MAD). nullopt, with
// the reason in `error` when one is given, if `data` is shorter than 80 bytes, or a trap the
// codec reads says what cannot be (trap 64/65 of GID zero, trap 128/144/145 of LID 0). Any other
// trap number decodes as OtherTrap.
std::optional<Notice> decode_notice(std::span<const std::uint8_t> data,
                                    std::string* error = nullptr);

// A SubnAdmReport(Notice) as received, the MAD from its first byte (after the umad header).
struct Report {
  std::uint64_t tid = 0;
  Notice notice;
};

// nullopt (the reason in `error`) unless `mad` is a whole SA MAD (256 bytes) of base version 1,
// class 0x03, method Report, attribute Notice, carrying a Notice decode_notice accepts.
std::optional<Report> decode_report(std::span<const std::uint8_t> mad,
                                    std::string* error = nullptr);

using Mad = std::array<std::uint8_t, kMadSize>;

// The SubnAdmReportResp(Notice) answering the Report `report_mad`: its headers with method
// ReportResp (0x86) and status 0, the same transaction ID, attribute and modifier, and its Notice
// echoed. nullopt when `report_mad` is no Report (as decode_report's header checks; the Notice
// need not decode: a Report of a trap we do not read is answered all the same).
std::optional<Mad> encode_report_response(std::span<const std::uint8_t> report_mad);

}  // namespace ibpm::mad
