// SPDX-License-Identifier: MIT
// Subscribing to traps at the SA, the Notices it forwards and the answers to its Reports, against
// the byte layouts written out here by hand: InformInfo (36 bytes) and InformInfoRecord (64) as
// OpenSM's ib_inform_info_t and ib_inform_info_record_t lay them out, the Notice (80 bytes) as
// libibmad's IB_NOTICE_* fields and OpenSM's ib_mad_notice_attr_t do, the MAD header as
// libibmad's IB_MAD_* fields.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdint>
#include <initializer_list>
#include <vector>

#include "mad/inform_info.hpp"
#include "mad/mad_packet.hpp"
#include "mad/notice.hpp"

using namespace ibpm;
using namespace ibpm::mad;

namespace {

// `bytes` written at `offset` of `into`.
template <typename Bytes>
void put(Bytes& into, std::size_t offset, std::initializer_list<std::uint8_t> bytes) {
  std::copy(bytes.begin(), bytes.end(), into.begin() + static_cast<std::ptrdiff_t>(offset));
}

template <typename Bytes>
std::vector<std::uint8_t> slice(const Bytes& from, std::size_t offset, std::size_t size) {
  return std::vector<std::uint8_t>(from.begin() + static_cast<std::ptrdiff_t>(offset),
                                   from.begin() + static_cast<std::ptrdiff_t>(offset + size));
}

// fe80::0002:c903:0001:2345, a port GID as bytes.
constexpr Gid kPortGid{0xfe, 0x80, 0,    0,    0,    0,    0,    0,
                       0x00, 0x02, 0xc9, 0x03, 0x00, 0x01, 0x23, 0x45};

using NoticeBytes = std::array<std::uint8_t, kNoticeSize>;

// A generic Notice's header: IsGeneric 1 and Type in byte 0, ProducerType bytes 1-3,
// TrapNumber 4-5, IssuerLID 6-7, NoticeToggle the top bit of byte 8 and NoticeCount the other 15
// bits of bytes 8-9; IssuerGID bytes 64-79.
NoticeBytes generic_notice(std::uint8_t type, std::uint8_t producer, std::uint16_t trap,
                           std::uint16_t issuer_lid) {
  NoticeBytes n{};
  n[0] = static_cast<std::uint8_t>(0x80 | type);
  put(n, 1, {0x00, 0x00, producer});
  put(n, 4, {static_cast<std::uint8_t>(trap >> 8), static_cast<std::uint8_t>(trap)});
  put(n, 6, {static_cast<std::uint8_t>(issuer_lid >> 8), static_cast<std::uint8_t>(issuer_lid)});
  put(n, 8, {0x80, 0x2a});  // toggle 1, count 42
  put(n, 64, {0xfe, 0x80, 0, 0, 0, 0, 0, 0, 0x00, 0x02, 0xc9, 0x03, 0x00, 0x00, 0x00, 0x01});
  return n;
}

// A SubnAdmReport(Notice) as OpenSM sends one: base version 1, class 0x03, class version 2,
// method 0x06, TID in bytes 8-15, attribute 0x0002 in bytes 16-17, the Notice from byte 56.
Mad report_mad(const NoticeBytes& notice) {
  Mad mad{};
  put(mad, 0, {0x01, 0x03, 0x02, 0x06});
  put(mad, 8, {0x00, 0x00, 0x00, 0x00, 0x02, 0xda, 0xb0, 0x01});
  put(mad, 16, {0x00, 0x02});
  std::copy(notice.begin(), notice.end(), mad.begin() + 56);
  return mad;
}

}  // namespace

TEST_CASE("sa notices: the method bytes, old and new") {
  CHECK(static_cast<unsigned>(MadMethod::get) == 0x01);
  CHECK(static_cast<unsigned>(MadMethod::set) == 0x02);
  CHECK(static_cast<unsigned>(MadMethod::get_table) == 0x12);
  CHECK(static_cast<unsigned>(MadMethod::report_response) == 0x86);
}

TEST_CASE("sa notices: Set(InformInfo) for one generic trap from all LIDs") {
  const MadQuery query = subscription_query(7, 128, true);
  CHECK(query.lid == 7);
  CHECK(query.mgmt_class == MgmtClass::subnet_admin);
  CHECK(query.method == MadMethod::set);
  CHECK(query.attribute == 0x0003);
  CHECK(query.modifier == 0);
  CHECK(query.component_mask == 0);

  MadRequestData expected{};
  // GID 0 (bytes 0-15): by LID range. LIDRangeBegin 0xFFFF: all; LIDRangeEnd 0.
  put(expected, 16, {0xff, 0xff, 0x00, 0x00});
  put(expected, 22, {0x01, 0x01});              // IsGeneric, Subscribe
  put(expected, 24, {0xff, 0xff});              // Type: any
  put(expected, 26, {0x00, 0x80});              // TrapNumber 128
  put(expected, 28, {0x00, 0x00, 0x01, 0x00});  // QPN 1, RespTimeValue 0
  put(expected, 32, {0x00, 0xff, 0xff, 0xff});  // reserved, ProducerType: any
  CHECK(query.data == expected);

  // Unsubscribing sends the same InformInfo with Subscribe 0, as OpenSM matches it.
  const MadQuery off = subscription_query(7, 128, false);
  expected[23] = 0x00;
  CHECK(off.data == expected);
  CHECK(off.method == MadMethod::set);

  for (unsigned trap : {64u, 65u, 144u, 145u}) {
    const MadQuery q = subscription_query(1, trap, true);
    CHECK(q.data[26] == 0x00);
    CHECK(q.data[27] == trap);
  }
}

TEST_CASE("sa notices: Set(InformInfo) as libibmad puts it on the wire") {
  Packet packet{};
  build_packet(subscription_query(7, 65, true), packet);
  const auto* mad = static_cast<const std::uint8_t*>(umad_get_mad(packet.data()));
  CHECK(mad[0] == 0x01);  // base version
  CHECK(mad[1] == 0x03);  // SA class
  CHECK(mad[3] == 0x02);  // Set
  CHECK(mad[16] == 0x00);
  CHECK(mad[17] == 0x03);  // InformInfo
  // The InformInfo from byte 56 of the MAD.
  CHECK(mad[56 + 16] == 0xff);
  CHECK(mad[56 + 17] == 0xff);
  CHECK(mad[56 + 22] == 0x01);
  CHECK(mad[56 + 23] == 0x01);
  CHECK(mad[56 + 27] == 65);
  CHECK(mad[56 + 30] == 0x01);
  CHECK(mad[56 + 35] == 0xff);
}

TEST_CASE("sa notices: every InformInfo field round-trips") {
  InformInfo info;
  info.gid = kPortGid;
  info.lid_range_begin = 0x0102;
  info.lid_range_end = 0x0304;
  info.is_generic = false;
  info.subscribe = true;
  info.type = 0x0506;
  info.trap_number = 0x0708;  // DeviceID of a vendor's notice
  info.qpn = 0x0a0b0c;
  info.resp_time_value = 0x1d;
  info.producer = 0x0e0f10;  // VendorID

  std::array<std::uint8_t, kInformInfoSize> expected{};
  std::copy(kPortGid.begin(), kPortGid.end(), expected.begin());
  put(expected, 16, {0x01, 0x02, 0x03, 0x04, 0x00, 0x00, 0x00, 0x01, 0x05, 0x06, 0x07, 0x08});
  put(expected, 28, {0x0a, 0x0b, 0x0c, 0x1d, 0x00, 0x0e, 0x0f, 0x10});

  std::array<std::uint8_t, kInformInfoSize> encoded{};
  encoded.fill(0xee);  // every byte written, reserved ones as zero
  encode_inform_info(info, encoded);
  CHECK(encoded == expected);

  const auto decoded = decode_inform_info(expected);
  REQUIRE(decoded);
  CHECK(*decoded == info);

  // The query carries it in the first 36 bytes of the SA data, the rest zero.
  const MadQuery query = inform_info_query(3, info);
  CHECK(slice(query.data, 0, kInformInfoSize) == slice(expected, 0, kInformInfoSize));
  CHECK(std::all_of(query.data.begin() + kInformInfoSize, query.data.end(),
                    [](std::uint8_t b) { return b == 0; }));
}

TEST_CASE("sa notices: InformInfo fields wider than the layout are cut to it") {
  InformInfo info;
  info.qpn = 0xff123456;
  info.resp_time_value = 0xff;
  info.producer = 0xab000001;
  info.trap_number = 0x10080;
  std::array<std::uint8_t, kInformInfoSize> encoded{};
  encode_inform_info(info, encoded);
  CHECK(slice(encoded, 26, 10) ==
        std::vector<std::uint8_t>{0x00, 0x80, 0x12, 0x34, 0x56, 0x1f, 0x00, 0x00, 0x00, 0x01});
  // The 3 reserved bits above RespTimeValue are not read.
  encoded[31] = 0xe3;
  CHECK(decode_inform_info(encoded)->resp_time_value == 0x03);
}

TEST_CASE("sa notices: an InformInfo answer cut short is no InformInfo") {
  std::array<std::uint8_t, kInformInfoSize - 1> cut{};
  CHECK_FALSE(decode_inform_info(cut));
  CHECK_FALSE(decode_inform_info(std::span<const std::uint8_t>{}));
  MadData answer{};  // the SA's GetResp data, as the engine hands it over
  answer[22] = 1;
  answer[27] = 144;
  const auto info = decode_inform_info(answer);
  REQUIRE(info);
  CHECK(info->trap_number == 144);
  CHECK(info->is_generic);
  CHECK_FALSE(info->subscribe);
}

TEST_CASE("sa notices: GetTable(InformInfoRecord) and its records") {
  const MadQuery all = inform_info_records_query(7, std::nullopt);
  CHECK(all.lid == 7);
  CHECK(all.mgmt_class == MgmtClass::subnet_admin);
  CHECK(all.method == MadMethod::get_table);
  CHECK(all.attribute == 0x00f3);
  CHECK(all.component_mask == 0);
  CHECK(all.data == MadRequestData{});

  const MadQuery mine = inform_info_records_query(7, kPortGid);
  CHECK(mine.component_mask == 0x1);  // SubscriberGID
  CHECK(slice(mine.data, 0, 16) == slice(kPortGid, 0, 16));

  // Two records of 64 bytes: SubscriberGID 0-15, Enum 16-17, reserved 18-23, InformInfo 24-59,
  // padding 60-63; the third, all zero, ends the table.
  MadData data{};
  std::copy(kPortGid.begin(), kPortGid.end(), data.begin());
  put(data, 16, {0x00, 0x00});
  put(data, 24 + 16, {0xff, 0xff, 0x00, 0x00, 0x00, 0x00, 0x01, 0x01, 0xff, 0xff, 0x00, 0x80});
  put(data, 24 + 28, {0x00, 0x00, 0x01, 0x00, 0x00, 0xff, 0xff, 0xff});
  put(data, 64, {0xfe, 0x80, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x09});
  put(data, 64 + 16, {0x00, 0x03});
  put(data, 64 + 24 + 16, {0x00, 0x05, 0x00, 0x06, 0x00, 0x00, 0x01, 0x01, 0x00, 0x01, 0x00, 0x40});
  put(data, 64 + 24 + 28, {0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00, 0x02});

  const auto records = decode_inform_info_records(data);
  REQUIRE(records.size() == 2);
  CHECK(records[0].subscriber_gid == kPortGid);
  CHECK(records[0].subscriber_enum == 0);
  CHECK(records[0].info == generic_trap_subscription(128, true));
  CHECK(interface_id(records[1].subscriber_gid) == 0x09);
  CHECK(records[1].subscriber_enum == 3);
  CHECK(records[1].info.lid_range_begin == 5);
  CHECK(records[1].info.lid_range_end == 6);
  CHECK(records[1].info.type == 1);
  CHECK(records[1].info.trap_number == 64);
  CHECK(records[1].info.qpn == 1);
  CHECK(records[1].info.producer == 2);

  CHECK(lists_subscription(records, kPortGid, generic_trap_subscription(128, true)));
  CHECK_FALSE(lists_subscription(records, kPortGid, generic_trap_subscription(144, true)));
  CHECK_FALSE(
      lists_subscription(records, records[1].subscriber_gid, generic_trap_subscription(128, true)));
  // The SA keeps the source QP as QPN: not compared.
  InformInfo other_qp = generic_trap_subscription(128, true);
  other_qp.qpn = 0x123;
  CHECK(lists_subscription(records, kPortGid, other_qp));

  // Whole records only; a record size that cannot hold the fields reads nothing.
  CHECK(decode_inform_info_records(std::span(data).first(127)).size() == 1);
  CHECK(decode_inform_info_records(data, 32).empty());
  CHECK(decode_inform_info_records(data, 0).empty());
  CHECK(decode_inform_info_records(std::span<const std::uint8_t>{}).empty());
}

TEST_CASE("sa notices: GID helpers") {
  const Gid gid = make_gid(0xfe80000000000000ULL, 0x0002c90300012345ULL);
  CHECK(gid == kPortGid);
  CHECK(interface_id(gid) == 0x0002c90300012345ULL);
  CHECK(is_zero(Gid{}));
  CHECK_FALSE(is_zero(gid));
}

TEST_CASE("sa notices: trap 128 carries the switch's LID and no port") {
  NoticeBytes n = generic_notice(1, 2, 128, 0x0005);  // urgent, from a switch
  put(n, 10, {0x00, 0x05});                           // DataDetails: LIDADDR
  std::string error;
  const auto notice = decode_notice(n, &error);
  REQUIRE(notice);
  CHECK(notice->is_generic);
  CHECK(notice->type == static_cast<unsigned>(NoticeType::urgent));
  CHECK(notice->producer == 2);
  CHECK(notice->trap_number == 128);
  CHECK(notice->issuer_lid == 5);
  CHECK(notice->toggle);
  CHECK(notice->count == 42);
  CHECK(interface_id(notice->issuer_gid) == 0x0002c90300000001ULL);
  CHECK(notice->data_details[0] == 0x00);
  CHECK(notice->data_details[1] == 0x05);
  const auto* change = std::get_if<LinkStateChange>(&notice->details);
  REQUIRE(change);
  CHECK(change->lid == 5);
}

TEST_CASE("sa notices: traps 64 and 65 carry the GID at byte 6 of the details") {
  for (std::uint16_t trap : {std::uint16_t{64}, std::uint16_t{65}}) {
    NoticeBytes n = generic_notice(4, 4, trap, 0x0001);  // informational, from the SM
    std::copy(kPortGid.begin(), kPortGid.end(), n.begin() + 10 + 6);
    const auto notice = decode_notice(n);
    REQUIRE(notice);
    CHECK(notice->trap_number == trap);
    CHECK(notice->producer == 4);
    const auto* gid = std::get_if<GidInService>(&notice->details);
    REQUIRE(gid);
    CHECK(gid->gid == kPortGid);
    CHECK(gid->in_service == (trap == 64));
  }
}

TEST_CASE("sa notices: trap 144's LID, local changes, capability mask and change flags") {
  NoticeBytes n = generic_notice(4, 1, 144, 0x0011);  // informational, from a CA
  // DataDetails: reserved 16 bits, LIDADDR, a reserved byte, LocalChanges (its low bit),
  // CapabilityMask, ChangeFlags (the low 6 bits; the rest reserved), CapabilityMask2.
  put(n, 10, {0xff, 0xff, 0x00, 0x11, 0xff, 0x01, 0x02, 0x51, 0x08, 0x4a, 0xff, 0xc7, 0x12, 0x34});
  const auto notice = decode_notice(n);
  REQUIRE(notice);
  const auto* change = std::get_if<LocalChanges>(&notice->details);
  REQUIRE(change);
  CHECK(change->lid == 0x11);
  CHECK(change->other_local_changes);
  CHECK(change->capability_mask == 0x0251084a);
  CHECK(change->change_flags == 0x07);
  CHECK(change->node_description_changed());
  CHECK(change->link_width_enabled_changed());
  CHECK(change->link_speed_enabled_changed());
  CHECK(change->capability_mask2 == 0x1234);

  // Only the node description changed; LocalChanges' upper bits are reserved.
  put(n, 10 + 5, {0xfe});
  put(n, 10 + 10, {0x00, 0x01});
  const auto only = decode_notice(n);
  REQUIRE(only);
  const auto& desc = std::get<LocalChanges>(only->details);
  CHECK_FALSE(desc.other_local_changes);
  CHECK(desc.node_description_changed());
  CHECK_FALSE(desc.link_width_enabled_changed());
  CHECK_FALSE(desc.link_speed_enabled_changed());
}

TEST_CASE("sa notices: trap 145's LID and system image GUID") {
  NoticeBytes n = generic_notice(4, 2, 145, 0x0022);
  // DataDetails: reserved 16 bits, LIDADDR, reserved 16 bits, SystemImageGUID.
  put(n, 10, {0x00, 0x00, 0x00, 0x22, 0x00, 0x00, 0x00, 0x02, 0xc9, 0x03, 0x00, 0xaa, 0xbb, 0xcc});
  const auto notice = decode_notice(n);
  REQUIRE(notice);
  const auto* change = std::get_if<SystemImageGuidChange>(&notice->details);
  REQUIRE(change);
  CHECK(change->lid == 0x22);
  CHECK(change->system_image_guid == 0x0002c90300aabbccULL);
}

TEST_CASE("sa notices: every Notice header field round-trips at its extremes") {
  NoticeBytes n{};
  put(n, 0, {0x7f, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f, 0xff});  // vendor, all ones
  const auto high = decode_notice(n);
  REQUIRE(high);
  CHECK_FALSE(high->is_generic);
  CHECK(high->type == 0x7f);
  CHECK(high->producer == 0xffffff);   // VendorID
  CHECK(high->trap_number == 0xffff);  // DeviceID
  CHECK(high->issuer_lid == 0xffff);
  CHECK_FALSE(high->toggle);
  CHECK(high->count == 0x7fff);
  CHECK(std::holds_alternative<OtherTrap>(high->details));

  put(n, 0, {0x80, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x80, 0x00});
  n[10] = 0x5a;
  n[63] = 0xa5;  // the last byte of the details
  n[79] = 0x77;  // the last byte of IssuerGID
  const auto low = decode_notice(n);
  REQUIRE(low);
  CHECK(low->is_generic);
  CHECK(low->type == 0);
  CHECK(low->producer == 0);
  CHECK(low->trap_number == 0);
  CHECK(low->toggle);
  CHECK(low->count == 0);
  CHECK(low->data_details.front() == 0x5a);
  CHECK(low->data_details.back() == 0xa5);
  CHECK(low->issuer_gid[15] == 0x77);
}

TEST_CASE("sa notices: trap numbers the codec does not read decode as such") {
  for (std::uint16_t trap : {std::uint16_t{66}, std::uint16_t{129}, std::uint16_t{256},
                             std::uint16_t{999}, std::uint16_t{0xffff}}) {
    NoticeBytes n = generic_notice(1, 2, trap, 3);
    put(n, 10, {0x00, 0x00, 0x00, 0x03, 0x07});
    const auto notice = decode_notice(n);
    REQUIRE(notice);
    CHECK(notice->trap_number == trap);
    CHECK(std::holds_alternative<OtherTrap>(notice->details));
    CHECK(notice->data_details[3] == 0x03);
    CHECK(notice->data_details[4] == 0x07);
  }
  // A vendor's notice: DeviceID where the trap number would be, not read as trap 128.
  NoticeBytes vendor = generic_notice(1, 2, 128, 3);
  vendor[0] = 0x01;
  const auto notice = decode_notice(vendor);
  REQUIRE(notice);
  CHECK_FALSE(notice->is_generic);
  CHECK(std::holds_alternative<OtherTrap>(notice->details));
}

TEST_CASE("sa notices: cut or malformed Notices are refused") {
  const NoticeBytes n = generic_notice(1, 2, 128, 5);
  std::string error;
  CHECK_FALSE(decode_notice(std::span(n).first(kNoticeSize - 1), &error));
  CHECK(error == "Notice cut short: 79 of 80 bytes");
  CHECK_FALSE(decode_notice(std::span<const std::uint8_t>{}, &error));
  CHECK(error == "Notice cut short: 0 of 80 bytes");

  // Trap 128 of LID 0 (its details left zero), 64 of GID zero, 144 and 145 of LID 0.
  CHECK_FALSE(decode_notice(n, &error));
  CHECK(error == "trap 128 without a switch LID");
  CHECK_FALSE(decode_notice(generic_notice(4, 4, 64, 1), &error));
  CHECK(error == "trap 64 without a GID");
  CHECK_FALSE(decode_notice(generic_notice(4, 4, 65, 1), &error));
  CHECK(error == "trap 65 without a GID");
  CHECK_FALSE(decode_notice(generic_notice(4, 1, 144, 1), &error));
  CHECK(error == "trap 144 without a LID");
  CHECK_FALSE(decode_notice(generic_notice(4, 1, 145, 1), &error));
  CHECK(error == "trap 145 without a LID");
  // No error text asked for: still refused.
  CHECK_FALSE(decode_notice(n));
}

TEST_CASE("sa notices: a Report decodes to its TID and Notice") {
  NoticeBytes n = generic_notice(1, 2, 128, 0x0005);
  put(n, 10, {0x00, 0x05});
  const Mad mad = report_mad(n);
  const auto report = decode_report(mad);
  REQUIRE(report);
  CHECK(report->tid == 0x02dab001);
  CHECK(report->notice.trap_number == 128);
  CHECK(std::get<LinkStateChange>(report->notice.details).lid == 5);

  std::string error;
  CHECK_FALSE(decode_report(std::span(mad).first(255), &error));
  CHECK(error == "Report cut short: 255 of 256 bytes");
  Mad other = mad;
  other[0] = 0x02;
  CHECK_FALSE(decode_report(other, &error));
  CHECK(error == "not a MAD of base version 1");
  other = mad;
  other[1] = 0x04;
  CHECK_FALSE(decode_report(other, &error));
  CHECK(error == "not an SA MAD");
  other = mad;
  other[3] = 0x81;  // GetResp
  CHECK_FALSE(decode_report(other, &error));
  CHECK(error == "not a Report");
  other[3] = 0x86;  // a ReportResp is not a Report
  CHECK_FALSE(decode_report(other, &error));
  CHECK(error == "not a Report");
  other = mad;
  other[17] = 0x03;
  CHECK_FALSE(decode_report(other, &error));
  CHECK(error == "a Report of another attribute than Notice");
  // A Report whose Notice says what cannot be.
  CHECK_FALSE(decode_report(report_mad(generic_notice(1, 2, 128, 5)), &error));
  CHECK(error == "trap 128 without a switch LID");
}

TEST_CASE("sa notices: a ReportResponse keeps the TID and echoes the Notice") {
  NoticeBytes n = generic_notice(1, 2, 128, 0x0005);
  put(n, 10, {0x00, 0x05});
  Mad mad = report_mad(n);
  put(mad, 20, {0x00, 0x00, 0x00, 0x07});                          // an attribute modifier, kept
  put(mad, 36, {0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08});  // SM_Key, kept

  const auto response = encode_report_response(mad);
  REQUIRE(response);
  Mad expected = mad;
  expected[3] = 0x86;  // ReportResp
  CHECK(*response == expected);
  CHECK((*response)[3] == static_cast<std::uint8_t>(MadMethod::report_response));
  CHECK(slice(*response, 8, 8) ==
        std::vector<std::uint8_t>{0x00, 0x00, 0x00, 0x00, 0x02, 0xda, 0xb0, 0x01});
  CHECK(slice(*response, 56, kNoticeSize) == slice(n, 0, kNoticeSize));

  // A status in the Report is not echoed: the response says success.
  mad[4] = 0x00;
  mad[5] = 0x1c;
  const auto cleared = encode_report_response(mad);
  REQUIRE(cleared);
  CHECK((*cleared)[4] == 0x00);
  CHECK((*cleared)[5] == 0x00);

  // A Report of a trap we do not read, or one whose Notice is malformed, is answered too.
  CHECK(encode_report_response(report_mad(generic_notice(1, 2, 999, 5))));
  CHECK(encode_report_response(report_mad(generic_notice(1, 2, 128, 5))));

  // Anything else is not answered.
  CHECK_FALSE(encode_report_response(std::span(mad).first(200)));
  Mad not_report = mad;
  not_report[3] = 0x81;
  CHECK_FALSE(encode_report_response(not_report));
  not_report = mad;
  not_report[1] = 0x01;
  CHECK_FALSE(encode_report_response(not_report));
  not_report = mad;
  not_report[17] = 0x03;
  CHECK_FALSE(encode_report_response(not_report));
}
