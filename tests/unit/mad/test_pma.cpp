// SPDX-License-Identifier: MIT
// The PMA and SMP codecs without a fabric: requests are checked against the IBA layout (through
// libibmad's field getters and, where it matters, the raw bytes), replies are encoded with
// libibmad's setters and decoded back.
#include <infiniband/mad.h>

#include <catch2/catch.hpp>

#include "mad/pma.hpp"
#include "mad/smp.hpp"

using namespace ibpm;
using namespace ibpm::mad;

namespace {

std::uint32_t get(const MadQuery& query, MAD_FIELDS field) {
  return mad_get_field(const_cast<std::uint8_t*>(query.data.data()), 0, field);
}

void set(MadData& data, MAD_FIELDS field, std::uint32_t value) {
  mad_set_field(data.data(), 0, field, value);
}

void set64(MadData& data, MAD_FIELDS field, std::uint64_t value) {
  mad_set_field64(data.data(), 0, field, value);
}

// Each counter's PortCounters field, written here independently of pma.cpp's table.
MAD_FIELDS field_of(counters::Counter counter) {
  switch (counter) {
    case counters::Counter::symbol_errors:
      return IB_PC_ERR_SYM_F;
    case counters::Counter::link_error_recovery:
      return IB_PC_LINK_RECOVERS_F;
    case counters::Counter::link_downed:
      return IB_PC_LINK_DOWNED_F;
    case counters::Counter::rcv_errors:
      return IB_PC_ERR_RCV_F;
    case counters::Counter::rcv_remote_physical_errors:
      return IB_PC_ERR_PHYSRCV_F;
    case counters::Counter::rcv_switch_relay_errors:
      return IB_PC_ERR_SWITCH_REL_F;
    case counters::Counter::xmit_discards:
      return IB_PC_XMT_DISCARDS_F;
    case counters::Counter::xmit_constraint_errors:
      return IB_PC_ERR_XMTCONSTR_F;
    case counters::Counter::rcv_constraint_errors:
      return IB_PC_ERR_RCVCONSTR_F;
    case counters::Counter::local_link_integrity_errors:
      return IB_PC_ERR_LOCALINTEG_F;
    case counters::Counter::excessive_buffer_overrun_errors:
      return IB_PC_ERR_EXCESS_OVR_F;
    case counters::Counter::vl15_dropped:
      return IB_PC_VL15_DROPPED_F;
    case counters::Counter::xmit_wait:
      return IB_PC_XMT_WAIT_F;
    case counters::Counter::xmit_data:
      return IB_PC_XMT_BYTES_F;
    case counters::Counter::rcv_data:
      return IB_PC_RCV_BYTES_F;
    case counters::Counter::xmit_pkts:
      return IB_PC_XMT_PKTS_F;
    case counters::Counter::rcv_pkts:
      return IB_PC_RCV_PKTS_F;
  }
  throw std::logic_error("unknown counter");
}

// IBA PortCounters: CounterSelect bit of each counter, -1 for PortXmitWait (CounterSelect2 bit 0).
int select_bit(counters::Counter counter) {
  switch (counter) {
    case counters::Counter::symbol_errors:
      return 0;
    case counters::Counter::link_error_recovery:
      return 1;
    case counters::Counter::link_downed:
      return 2;
    case counters::Counter::rcv_errors:
      return 3;
    case counters::Counter::rcv_remote_physical_errors:
      return 4;
    case counters::Counter::rcv_switch_relay_errors:
      return 5;
    case counters::Counter::xmit_discards:
      return 6;
    case counters::Counter::xmit_constraint_errors:
      return 7;
    case counters::Counter::rcv_constraint_errors:
      return 8;
    case counters::Counter::local_link_integrity_errors:
      return 9;
    case counters::Counter::excessive_buffer_overrun_errors:
      return 10;
    case counters::Counter::vl15_dropped:
      return 11;
    case counters::Counter::xmit_data:
      return 12;
    case counters::Counter::rcv_data:
      return 13;
    case counters::Counter::xmit_pkts:
      return 14;
    case counters::Counter::rcv_pkts:
      return 15;
    case counters::Counter::xmit_wait:
      return -1;
  }
  throw std::logic_error("unknown counter");
}

constexpr PmaCapabilities kAll{kPmaExtendedWidth | kPmaXmitWait};

}  // namespace

TEST_CASE("port_counters_query puts PortSelect where IB_PC_PORT_SELECT_F reads it") {
  for (unsigned port : {1u, 17u, 36u, 255u}) {
    INFO("port " << port);
    MadQuery query = port_counters_query(0x1234, port);
    CHECK(query.lid == 0x1234);
    CHECK(query.mgmt_class == MgmtClass::performance);
    CHECK(query.method == MadMethod::get);
    CHECK(query.attribute == 0x12);
    CHECK(query.modifier == 0);
    CHECK(get(query, IB_PC_PORT_SELECT_F) == port);
    CHECK(query.data[1] == port);  // IBA: PortSelect is byte 1 of the attribute
    CHECK(get(query, IB_PC_COUNTER_SELECT_F) == 0);
  }
}

TEST_CASE("port_counters_extended_query and class_port_info_query address the right attribute") {
  MadQuery ext = port_counters_extended_query(7, 23);
  CHECK(ext.lid == 7);
  CHECK(ext.mgmt_class == MgmtClass::performance);
  CHECK(ext.method == MadMethod::get);
  CHECK(ext.attribute == 0x1D);
  CHECK(get(ext, IB_PC_EXT_PORT_SELECT_F) == 23);
  CHECK(ext.data[1] == 23);
  CHECK(get(ext, IB_PC_EXT_COUNTER_SELECT_F) == 0);

  MadQuery cpi = class_port_info_query(9);
  CHECK(cpi.lid == 9);
  CHECK(cpi.mgmt_class == MgmtClass::performance);
  CHECK(cpi.method == MadMethod::get);
  CHECK(cpi.attribute == 0x01);
  CHECK(cpi.data == MadRequestData{});
}

TEST_CASE("every field a request sets lies within the request's payload") {
  // A query carries only the first kMadRequestSize bytes of the attribute data: each field the
  // PMA queries set must end inside them (set in a whole MAD's data, the last byte it touches).
  for (const int field :
       {IB_PC_PORT_SELECT_F, IB_PC_COUNTER_SELECT_F, IB_PC_COUNTER_SELECT2_F,
        IB_PC_EXT_PORT_SELECT_F, IB_PC_EXT_COUNTER_SELECT_F, IB_PC_EXT_COUNTER_SELECT2_F}) {
    INFO("field " << field);
    MadData whole{};
    mad_set_field(whole.data(), 0, static_cast<enum MAD_FIELDS>(field), 0xffffffffu);
    std::size_t end = 0;
    for (std::size_t i = 0; i < whole.size(); ++i)
      if (whole[i]) end = i + 1;
    CHECK(end > 0);
    CHECK(end <= kMadRequestSize);
  }
}

TEST_CASE("reset_port_counters_query sets exactly the CounterSelect bit of each counter") {
  for (const counters::CounterSpec& s : counters::counter_specs()) {
    INFO(s.name);
    const int bit = select_bit(s.id);
    const unsigned want_select = bit >= 0 ? 1u << bit : 0u;
    const unsigned want_select2 = bit < 0 ? 1u : 0u;
    MadQuery query = reset_port_counters_query(0x42, 5, counter_bit(s.id));
    CHECK(query.lid == 0x42);
    CHECK(query.mgmt_class == MgmtClass::performance);
    CHECK(query.method == MadMethod::set);
    CHECK(query.attribute == 0x12);
    CHECK(get(query, IB_PC_PORT_SELECT_F) == 5);
    CHECK(get(query, IB_PC_COUNTER_SELECT_F) == want_select);
    CHECK(get(query, IB_PC_COUNTER_SELECT2_F) == want_select2);
    // IBA bytes: CounterSelect 2..3 (big-endian), CounterSelect2 18.
    CHECK(query.data[2] == (want_select >> 8));
    CHECK(query.data[3] == (want_select & 0xff));
    CHECK(query.data[18] == want_select2);
    // A Set writes the counter fields it selects: they must all be zero (the engine sends zeros
    // after the request's payload).
    for (std::size_t i = 4; i < query.data.size(); ++i)
      if (i != 18) CHECK(query.data[i] == 0);
    CHECK(counter_select(counter_bit(s.id)) == want_select);
    CHECK(counter_select2(counter_bit(s.id)) == want_select2);
  }
}

TEST_CASE("reset_port_counters_query with every counter or none") {
  counters::CounterMask all = 0;
  for (const counters::CounterSpec& s : counters::counter_specs()) all |= counter_bit(s.id);
  MadQuery every = reset_port_counters_query(1, 2, all);
  CHECK(get(every, IB_PC_COUNTER_SELECT_F) == 0xffff);
  CHECK(get(every, IB_PC_COUNTER_SELECT2_F) == 1);

  MadQuery none = reset_port_counters_query(1, 2, 0);
  CHECK(none.method == MadMethod::set);
  CHECK(get(none, IB_PC_COUNTER_SELECT_F) == 0);
  CHECK(get(none, IB_PC_COUNTER_SELECT2_F) == 0);

  MadQuery data_only = reset_port_counters_query(1, 2, counters::kDataCounterMask);
  CHECK(get(data_only, IB_PC_COUNTER_SELECT_F) == 0xf000);
  CHECK(get(data_only, IB_PC_COUNTER_SELECT2_F) == 0);
}

TEST_CASE("reset_port_counters_extended_query selects the 64-bit data counters") {
  const std::pair<counters::Counter, unsigned> bits[] = {{counters::Counter::xmit_data, 0},
                                                         {counters::Counter::rcv_data, 1},
                                                         {counters::Counter::xmit_pkts, 2},
                                                         {counters::Counter::rcv_pkts, 3}};
  for (auto [counter, bit] : bits) {
    INFO(counters::spec(counter).name);
    MadQuery query = reset_port_counters_extended_query(3, 4, counters::counter_bit(counter));
    CHECK(query.method == MadMethod::set);
    CHECK(query.attribute == 0x1D);
    CHECK(get(query, IB_PC_EXT_PORT_SELECT_F) == 4);
    CHECK(get(query, IB_PC_EXT_COUNTER_SELECT_F) == (1u << bit));
  }
  // Error counters have no 64-bit form: nothing selected.
  MadQuery errors = reset_port_counters_extended_query(
      3, 4, counters::counter_bit(counters::Counter::symbol_errors));
  CHECK(get(errors, IB_PC_EXT_COUNTER_SELECT_F) == 0);
}

TEST_CASE("decode_port_counters reads every field with distinct values") {
  // Nonzero, distinct per field, fitting the field's width (the two 4-bit fields share a byte).
  auto pattern = [](const counters::CounterSpec& s) -> std::uint64_t {
    const auto i = static_cast<std::uint64_t>(s.id);
    switch (s.bits) {
      case 4:
        return i % 15 + 1;
      case 8:
        return 0x10 + i;
      case 16:
        return 0x1000 + i * 0x111;
      default:
        return 0x10000000 + i * 0x01010101;
    }
  };
  MadData data{};
  for (const counters::CounterSpec& s : counters::counter_specs())
    set(data, field_of(s.id), static_cast<std::uint32_t>(pattern(s)));
  CounterValues values;
  decode_port_counters(data, kAll, values);
  for (const counters::CounterSpec& s : counters::counter_specs()) {
    INFO(s.name);
    REQUIRE(values[static_cast<std::size_t>(s.id)].has_value());
    CHECK(*values[static_cast<std::size_t>(s.id)] == pattern(s));
  }
}

TEST_CASE("decode_port_counters reads each field at its maximum alone") {
  for (const counters::CounterSpec& s : counters::counter_specs()) {
    INFO(s.name << " (" << s.bits << " bits)");
    MadData data{};
    set(data, field_of(s.id), static_cast<std::uint32_t>(counters::counter_max(s.bits)));
    CounterValues values;
    decode_port_counters(data, kAll, values);
    for (const counters::CounterSpec& other : counters::counter_specs()) {
      INFO("reading " << other.name);
      REQUIRE(values[static_cast<std::size_t>(other.id)].has_value());
      CHECK(*values[static_cast<std::size_t>(other.id)] ==
            (other.id == s.id ? counters::counter_max(s.bits) : 0));
    }
  }
}

TEST_CASE("decode_port_counters follows the IBA byte layout") {
  MadData data{};
  data[4] = 0x12, data[5] = 0x34;    // SymbolErrorCounter
  data[6] = 0x56;                    // LinkErrorRecoveryCounter
  data[19] = 0xa5;                   // LocalLinkIntegrity | ExcessiveBufferOverrun
  data[22] = 0xbe, data[23] = 0xef;  // VL15Dropped
  data[24] = 0xfe, data[25] = 0xdc, data[26] = 0xba, data[27] = 0x98;  // PortXmitData
  data[40] = 0x01, data[41] = 0x02, data[42] = 0x03, data[43] = 0x04;  // PortXmitWait
  CounterValues values;
  decode_port_counters(data, kAll, values);
  CHECK(values[static_cast<std::size_t>(counters::Counter::symbol_errors)] == 0x1234u);
  CHECK(values[static_cast<std::size_t>(counters::Counter::link_error_recovery)] == 0x56u);
  CHECK(values[static_cast<std::size_t>(counters::Counter::local_link_integrity_errors)] == 0xau);
  CHECK(values[static_cast<std::size_t>(counters::Counter::excessive_buffer_overrun_errors)] ==
        0x5u);
  CHECK(values[static_cast<std::size_t>(counters::Counter::vl15_dropped)] == 0xbeefu);
  CHECK(values[static_cast<std::size_t>(counters::Counter::xmit_data)] == 0xfedcba98u);
  CHECK(values[static_cast<std::size_t>(counters::Counter::xmit_wait)] == 0x01020304u);
  CHECK(values[static_cast<std::size_t>(counters::Counter::rcv_errors)] == 0u);
}

TEST_CASE("decode_port_counters leaves PortXmitWait empty without capability bit 12") {
  MadData data{};
  set(data, IB_PC_XMT_WAIT_F, 1234);
  set(data, IB_PC_ERR_SYM_F, 9);
  CounterValues values;
  values[static_cast<std::size_t>(counters::Counter::xmit_wait)] = 77;  // a stale reading must go
  decode_port_counters(data, PmaCapabilities{kPmaExtendedWidth}, values);
  CHECK_FALSE(values[static_cast<std::size_t>(counters::Counter::xmit_wait)].has_value());
  CHECK(values[static_cast<std::size_t>(counters::Counter::symbol_errors)] == 9u);

  decode_port_counters(data, PmaCapabilities{kPmaXmitWait}, values);
  CHECK(values[static_cast<std::size_t>(counters::Counter::xmit_wait)] == 1234u);
}

TEST_CASE("decode_port_counters_extended replaces the data counters with 64-bit values") {
  constexpr std::uint64_t kMax = ~std::uint64_t{0};
  MadData data{};
  set64(data, IB_PC_EXT_XMT_BYTES_F, kMax);
  set64(data, IB_PC_EXT_RCV_BYTES_F, (std::uint64_t{1} << 40) + 5);
  set64(data, IB_PC_EXT_XMT_PKTS_F, 0x0123456789abcdefULL);
  set64(data, IB_PC_EXT_RCV_PKTS_F, std::uint64_t{1} << 32);
  CounterValues values;
  values[static_cast<std::size_t>(counters::Counter::symbol_errors)] =
      3;  // not in the extended attribute
  values[static_cast<std::size_t>(counters::Counter::xmit_data)] =
      11;  // the 32-bit reading, replaced
  decode_port_counters_extended(data, values);
  CHECK(values[static_cast<std::size_t>(counters::Counter::xmit_data)] == kMax);
  CHECK(values[static_cast<std::size_t>(counters::Counter::rcv_data)] ==
        (std::uint64_t{1} << 40) + 5);
  CHECK(values[static_cast<std::size_t>(counters::Counter::xmit_pkts)] == 0x0123456789abcdefULL);
  CHECK(values[static_cast<std::size_t>(counters::Counter::rcv_pkts)] == std::uint64_t{1} << 32);
  CHECK(values[static_cast<std::size_t>(counters::Counter::symbol_errors)] == 3u);
  CHECK_FALSE(values[static_cast<std::size_t>(counters::Counter::xmit_wait)].has_value());
  // IBA: PortXmitData is bytes 8..15, big-endian.
  CHECK(data[8] == 0xff);
  MadData raw{};
  raw[15] = 0x2a;
  CounterValues from_raw;
  decode_port_counters_extended(raw, from_raw);
  CHECK(from_raw[static_cast<std::size_t>(counters::Counter::xmit_data)] == 42u);
}

TEST_CASE("decode_class_port_info reads the capability bits") {
  MadData data{};
  set(data, IB_CPI_CAPMASK_F, 0x1200);  // what ibsim's CAs answer
  PmaCapabilities ca = decode_class_port_info(data);
  CHECK(ca.mask == 0x1200);
  CHECK(ca.extended());
  CHECK(ca.xmit_wait());
  CHECK(data[2] == 0x12);  // IBA: CapabilityMask is bytes 2..3
  CHECK(data[3] == 0x00);

  set(data, IB_CPI_CAPMASK_F, 0x0400);  // extended without the IETF counters
  CHECK(decode_class_port_info(data).extended());
  CHECK_FALSE(decode_class_port_info(data).xmit_wait());

  set(data, IB_CPI_CAPMASK_F, 0x0100);  // AllPortSelect only: a PMA from before IBA 1.2
  CHECK_FALSE(decode_class_port_info(data).extended());
  CHECK_FALSE(decode_class_port_info(data).xmit_wait());

  set(data, IB_CPI_CAPMASK_F, 0xffff);
  CHECK(decode_class_port_info(data).mask == 0xffff);
  CHECK(decode_class_port_info(MadData{}).mask == 0);
}

TEST_CASE("decode_node_info reads GUIDs type ports and local port") {
  MadData data{};
  set64(data, IB_NODE_GUID_F, 0x0002c90300a1b2c3ULL);
  set64(data, IB_NODE_PORT_GUID_F, 0x0002c90300a1b2c4ULL);
  set(data, IB_NODE_TYPE_F, 2);
  set(data, IB_NODE_NPORTS_F, 36);
  set(data, IB_NODE_LOCAL_PORT_F, 17);
  NodeInfo info = decode_node_info(data);
  CHECK(info.node_guid == 0x0002c90300a1b2c3ULL);
  CHECK(info.port_guid == 0x0002c90300a1b2c4ULL);
  CHECK(info.type == NodeType::sw);
  CHECK(info.ports == 36);
  CHECK(info.local_port == 17);

  set(data, IB_NODE_TYPE_F, 1);
  CHECK(decode_node_info(data).type == NodeType::ca);
  set(data, IB_NODE_TYPE_F, 3);
  CHECK(decode_node_info(data).type == NodeType::router);
  set(data, IB_NODE_TYPE_F, 4);
  CHECK(decode_node_info(data).type == NodeType::unknown);

  MadQuery query = node_info_query(0x33);
  CHECK(query.lid == 0x33);
  CHECK(query.mgmt_class == MgmtClass::subnet);
  CHECK(query.attribute == 0x11);
}

TEST_CASE("describe_failure names what went wrong") {
  MadReply reply;
  reply.status = ReplyStatus::timed_out;
  reply.tries = 1;
  CHECK(describe_failure(reply) == "no answer after 1 try");
  reply.tries = 3;
  CHECK(describe_failure(reply) == "no answer after 3 tries");
  reply.status = ReplyStatus::failed;
  CHECK(describe_failure(reply) == "MAD could not be sent");
  reply.status = ReplyStatus::answered;
  reply.mad_status = 0x000c;
  CHECK(describe_failure(reply) == "MAD status 0x000c");
  CHECK_FALSE(reply.ok());
  reply.mad_status = 0x001c;
  CHECK(describe_failure(reply) == "MAD status 0x001c");
  reply.mad_status = 0;
  CHECK(reply.ok());
}

// --- One MAD per port: CapabilityMask2 and PortCountersExtended with the additional counters ---

namespace {

// Each counter's PortCountersExtended field (with the additional counters), written here
// independently of pma.cpp's table.
MAD_FIELDS extended_field_of(counters::Counter counter) {
  switch (counter) {
    case counters::Counter::symbol_errors:
      return IB_PC_EXT_ERR_SYM_F;
    case counters::Counter::link_error_recovery:
      return IB_PC_EXT_LINK_RECOVERS_F;
    case counters::Counter::link_downed:
      return IB_PC_EXT_LINK_DOWNED_F;
    case counters::Counter::rcv_errors:
      return IB_PC_EXT_ERR_RCV_F;
    case counters::Counter::rcv_remote_physical_errors:
      return IB_PC_EXT_ERR_PHYSRCV_F;
    case counters::Counter::rcv_switch_relay_errors:
      return IB_PC_EXT_ERR_SWITCH_REL_F;
    case counters::Counter::xmit_discards:
      return IB_PC_EXT_XMT_DISCARDS_F;
    case counters::Counter::xmit_constraint_errors:
      return IB_PC_EXT_ERR_XMTCONSTR_F;
    case counters::Counter::rcv_constraint_errors:
      return IB_PC_EXT_ERR_RCVCONSTR_F;
    case counters::Counter::local_link_integrity_errors:
      return IB_PC_EXT_ERR_LOCALINTEG_F;
    case counters::Counter::excessive_buffer_overrun_errors:
      return IB_PC_EXT_ERR_EXCESS_OVR_F;
    case counters::Counter::vl15_dropped:
      return IB_PC_EXT_VL15_DROPPED_F;
    case counters::Counter::xmit_wait:
      return IB_PC_EXT_XMT_WAIT_F;
    case counters::Counter::xmit_data:
      return IB_PC_EXT_XMT_BYTES_F;
    case counters::Counter::rcv_data:
      return IB_PC_EXT_RCV_BYTES_F;
    case counters::Counter::xmit_pkts:
      return IB_PC_EXT_XMT_PKTS_F;
    case counters::Counter::rcv_pkts:
      return IB_PC_EXT_RCV_PKTS_F;
  }
  throw std::logic_error("unknown counter");
}

// A current switch or HCA: extended counters, PortXmitWait, and the additional counters.
constexpr PmaCapabilities kOneMad{kPmaExtendedWidth | kPmaXmitWait, kPmaAdditionalExtended};

std::size_t at(counters::Counter c) { return static_cast<std::size_t>(c); }

}  // namespace

TEST_CASE("decode_class_port_info reads CapabilityMask2 above RespTimeValue") {
  MadData data{};
  set(data, IB_CPI_CAPMASK_F, 0x1200);
  set(data, IB_CPI_CAPMASK2_F, kPmaAdditionalExtended);
  set(data, IB_CPI_RESP_TIME_VALUE_F, 0x13);
  // IBA: bytes 4..7 are CapabilityMask2 (27 bits) and RespTimeValue (5 bits).
  CHECK(data[4] == 0x00);
  CHECK(data[5] == 0x00);
  CHECK(data[6] == 0x00);
  CHECK(data[7] == (0x40 | 0x13));
  PmaCapabilities caps = decode_class_port_info(data);
  CHECK(caps.mask == 0x1200);
  CHECK(caps.mask2 == kPmaAdditionalExtended);
  CHECK(caps.all_extended());

  // From the raw bytes alone: bit 1 of CapabilityMask2 is bit 6 of byte 7.
  MadData raw{};
  raw[2] = 0x02;  // IsExtendedWidthSupported
  raw[7] = 0x40;
  CHECK(decode_class_port_info(raw).all_extended());
  raw[7] = 0x20;  // bit 0, IsPMKeySupported: not the one
  CHECK(decode_class_port_info(raw).mask2 == 1);
  CHECK_FALSE(decode_class_port_info(raw).all_extended());

  // What ibsim answers: CapabilityMask2 zero.
  set(data, IB_CPI_CAPMASK2_F, 0);
  CHECK_FALSE(decode_class_port_info(data).all_extended());
  // The bit without PortCountersExtended claimed at all is not trusted.
  set(data, IB_CPI_CAPMASK_F, kPmaXmitWait);
  set(data, IB_CPI_CAPMASK2_F, kPmaAdditionalExtended);
  CHECK_FALSE(decode_class_port_info(data).all_extended());
}

TEST_CASE("plan_counter_reads: one query where the additional counters are there, else two") {
  auto attributes = [](const PmaCapabilities& caps) {
    std::vector<std::uint16_t> out;
    for (CounterRead read : plan_counter_reads(caps)) {
      const MadQuery q = counter_read_query(read, 7, 9);
      CHECK(q.lid == 7);
      CHECK(q.method == MadMethod::get);
      CHECK(q.mgmt_class == MgmtClass::performance);
      CHECK(get(q, IB_PC_PORT_SELECT_F) == 9);  // same place in both attributes
      out.push_back(q.attribute);
    }
    return out;
  };
  CHECK(attributes(kOneMad) == std::vector<std::uint16_t>{0x1D});
  CHECK(attributes(PmaCapabilities{kPmaExtendedWidthNoIetf, kPmaAdditionalExtended}) ==
        std::vector<std::uint16_t>{0x1D});
  CHECK(attributes(kAll) == std::vector<std::uint16_t>{0x12, 0x1D});
  CHECK(attributes(PmaCapabilities{kPmaExtendedWidth | kPmaXmitWait, 1}) ==
        std::vector<std::uint16_t>{0x12, 0x1D});  // IsPMKeySupported only
  CHECK(attributes(PmaCapabilities{kPmaXmitWait}) == std::vector<std::uint16_t>{0x12});
  CHECK(attributes(PmaCapabilities{kPmaXmitWait, kPmaAdditionalExtended}) ==
        std::vector<std::uint16_t>{0x12});

  const CounterReads one = plan_counter_reads(kOneMad);
  REQUIRE(one.count == 1);
  CHECK(one.reads[0] == CounterRead::extended_all);
  const CounterReads two = plan_counter_reads(kAll);
  REQUIRE(two.count == 2);
  CHECK(two.reads[0] == CounterRead::port_counters);
  CHECK(two.reads[1] == CounterRead::extended_data);
}

TEST_CASE("decode_port_counters_extended_all reads every counter 64-bit with distinct values") {
  auto pattern = [](counters::Counter c) -> std::uint64_t {
    const auto i = static_cast<std::uint64_t>(c);
    return 0x0100000000000000ULL * (i + 1) + 0x0001000100010001ULL * (i + 3);
  };
  MadData data{};
  for (const counters::CounterSpec& s : counters::counter_specs())
    set64(data, extended_field_of(s.id), pattern(s.id));
  set64(data, IB_PC_EXT_QP1_DROP_F, 0xdeadbeefULL);  // not one of ours: must not leak
  set64(data, IB_PC_EXT_XMT_UPKTS_F, 0x1111);
  CounterValues values;
  decode_port_counters_extended_all(data, kOneMad, values);
  for (const counters::CounterSpec& s : counters::counter_specs()) {
    INFO(s.name);
    REQUIRE(values[at(s.id)].has_value());
    CHECK(*values[at(s.id)] == pattern(s.id));
  }
}

TEST_CASE("decode_port_counters_extended_all reads each field at its 64-bit maximum alone") {
  constexpr std::uint64_t kMax = ~std::uint64_t{0};
  for (const counters::CounterSpec& s : counters::counter_specs()) {
    INFO(s.name);
    MadData data{};
    set64(data, extended_field_of(s.id), kMax);
    CounterValues values;
    decode_port_counters_extended_all(data, kOneMad, values);
    for (const counters::CounterSpec& other : counters::counter_specs()) {
      INFO("reading " << other.name);
      REQUIRE(values[at(other.id)].has_value());
      CHECK(*values[at(other.id)] == (other.id == s.id ? kMax : 0));
    }
  }
}

TEST_CASE("decode_port_counters_extended_all follows the IBA byte layout") {
  // IBA PortCountersExtended: PortXmitData at bytes 8..15, the eight data/packet counters up to
  // byte 71, then SymbolErrorCounter at 72..79, one 64-bit field after another, PortXmitWait at
  // 168..175 and QP1Dropped at 176..183.
  MadData data{};
  data[15] = 0x2a;                     // PortXmitData
  data[72] = 0x01, data[79] = 0x02;    // SymbolErrorCounter
  data[87] = 0x03;                     // LinkErrorRecoveryCounter
  data[95] = 0x04;                     // LinkDownedCounter
  data[160] = 0x80, data[167] = 0x05;  // VL15Dropped
  data[168] = 0x12, data[175] = 0x34;  // PortXmitWait
  data[183] = 0x77;                    // QP1Dropped
  CounterValues values;
  decode_port_counters_extended_all(data, kOneMad, values);
  CHECK(values[at(counters::Counter::xmit_data)] == 42u);
  CHECK(values[at(counters::Counter::symbol_errors)] == 0x0100000000000002ULL);
  CHECK(values[at(counters::Counter::link_error_recovery)] == 3u);
  CHECK(values[at(counters::Counter::link_downed)] == 4u);
  CHECK(values[at(counters::Counter::vl15_dropped)] == 0x8000000000000005ULL);
  CHECK(values[at(counters::Counter::xmit_wait)] == 0x1200000000000034ULL);
  CHECK(values[at(counters::Counter::rcv_errors)] == 0u);
  CHECK(values[at(counters::Counter::excessive_buffer_overrun_errors)] == 0u);
}

TEST_CASE("decode_port_counters_extended_all leaves PortXmitWait empty without bit 12") {
  MadData data{};
  set64(data, IB_PC_EXT_XMT_WAIT_F, 1234);
  set64(data, IB_PC_EXT_ERR_SYM_F, 9);
  CounterValues values;
  values[at(counters::Counter::xmit_wait)] = 77;
  decode_port_counters_extended_all(
      data, PmaCapabilities{kPmaExtendedWidth, kPmaAdditionalExtended}, values);
  CHECK_FALSE(values[at(counters::Counter::xmit_wait)].has_value());
  CHECK(values[at(counters::Counter::symbol_errors)] == 9u);
  decode_port_counters_extended_all(data, kOneMad, values);
  CHECK(values[at(counters::Counter::xmit_wait)] == 1234u);
}

TEST_CASE("reset_port_counters_extended_query clears error counters through CounterSelect2") {
  // With the additional counters, CounterSelect2 (bytes 4..7) bit i is the i-th additional field:
  // the error counters in Counter order, then PortXmitWait (bit 12); QP1Dropped (13) never.
  for (const counters::CounterSpec& s : counters::counter_specs()) {
    INFO(s.name);
    const MadQuery query = reset_port_counters_extended_query(3, 4, counter_bit(s.id), true);
    CHECK(query.method == MadMethod::set);
    CHECK(query.attribute == 0x1D);
    CHECK(get(query, IB_PC_EXT_PORT_SELECT_F) == 4);
    const bool data_counter = counters::kDataCounterMask & counter_bit(s.id);
    CHECK(get(query, IB_PC_EXT_COUNTER_SELECT2_F) ==
          (data_counter ? 0u : 1u << static_cast<unsigned>(s.id)));
    CHECK((get(query, IB_PC_EXT_COUNTER_SELECT_F) != 0) == data_counter);
  }
  const MadQuery wait = reset_port_counters_extended_query(
      3, 4, counters::counter_bit(counters::Counter::xmit_wait), true);
  CHECK(wait.data[4] == 0x00);
  CHECK(wait.data[5] == 0x00);
  CHECK(wait.data[6] == 0x10);  // bit 12 of the big-endian 32-bit field
  CHECK(wait.data[7] == 0x00);
  const MadQuery symbol = reset_port_counters_extended_query(
      3, 4, counters::counter_bit(counters::Counter::symbol_errors), true);
  CHECK(symbol.data[7] == 0x01);

  counters::CounterMask every = 0;
  for (const counters::CounterSpec& s : counters::counter_specs()) every |= counter_bit(s.id);
  const MadQuery all = reset_port_counters_extended_query(3, 4, every, true);
  CHECK(get(all, IB_PC_EXT_COUNTER_SELECT_F) == 0xfu);
  CHECK(get(all, IB_PC_EXT_COUNTER_SELECT2_F) == 0x1fffu);
  // Without the additional counters CounterSelect2 stays clear.
  CHECK(get(reset_port_counters_extended_query(3, 4, every), IB_PC_EXT_COUNTER_SELECT2_F) == 0u);
}

TEST_CASE("capabilities survive the state's 32-bit form, older values are not trusted") {
  for (const PmaCapabilities& caps :
       {kOneMad, kAll, PmaCapabilities{}, PmaCapabilities{0xffff, 0x7fff}}) {
    const std::uint32_t stored = stored_capabilities(caps);
    CHECK((stored & kStoredMask2Known) != 0);
    CHECK((stored & 0xffffu) == caps.mask);  // CapabilityMask where it always was
    const auto back = capabilities_from_stored(stored);
    REQUIRE(back);
    CHECK(*back == caps);
    CHECK(back->all_extended() == caps.all_extended());
  }
  // Written before CapabilityMask2 was kept: asked again.
  CHECK_FALSE(capabilities_from_stored(0x1200));
  CHECK_FALSE(capabilities_from_stored(0x5600));
  // CapabilityMask2 bits above 14 are not kept (none is used).
  CHECK(capabilities_from_stored(stored_capabilities(PmaCapabilities{0, 1u << 20}))->mask2 == 0);
}
