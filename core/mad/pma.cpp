// SPDX-License-Identifier: MIT

#include "mad/pma.hpp"

#include <infiniband/mad.h>

namespace ibpm::mad {

namespace {

// The libibmad field of each counter in PortCounters, in Counter order.
constexpr MAD_FIELDS kPortCountersField[counters::kCounterCount] = {
    IB_PC_ERR_SYM_F,       IB_PC_LINK_RECOVERS_F,  IB_PC_LINK_DOWNED_F,    IB_PC_ERR_RCV_F,
    IB_PC_ERR_PHYSRCV_F,   IB_PC_ERR_SWITCH_REL_F, IB_PC_XMT_DISCARDS_F,   IB_PC_ERR_XMTCONSTR_F,
    IB_PC_ERR_RCVCONSTR_F, IB_PC_ERR_LOCALINTEG_F, IB_PC_ERR_EXCESS_OVR_F, IB_PC_VL15_DROPPED_F,
    IB_PC_XMT_WAIT_F,      IB_PC_XMT_BYTES_F,      IB_PC_RCV_BYTES_F,      IB_PC_XMT_PKTS_F,
    IB_PC_RCV_PKTS_F,
};

// The libibmad field of each counter in PortCountersExtended with the additional counters, in
// Counter order (the attribute's order too, data and packet counters aside).
constexpr MAD_FIELDS kExtendedAllField[counters::kCounterCount] = {
    IB_PC_EXT_ERR_SYM_F,        IB_PC_EXT_LINK_RECOVERS_F,  IB_PC_EXT_LINK_DOWNED_F,
    IB_PC_EXT_ERR_RCV_F,        IB_PC_EXT_ERR_PHYSRCV_F,    IB_PC_EXT_ERR_SWITCH_REL_F,
    IB_PC_EXT_XMT_DISCARDS_F,   IB_PC_EXT_ERR_XMTCONSTR_F,  IB_PC_EXT_ERR_RCVCONSTR_F,
    IB_PC_EXT_ERR_LOCALINTEG_F, IB_PC_EXT_ERR_EXCESS_OVR_F, IB_PC_EXT_VL15_DROPPED_F,
    IB_PC_EXT_XMT_WAIT_F,       IB_PC_EXT_XMT_BYTES_F,      IB_PC_EXT_RCV_BYTES_F,
    IB_PC_EXT_XMT_PKTS_F,       IB_PC_EXT_RCV_PKTS_F,
};

struct ExtendedField {
  counters::Counter counter;
  MAD_FIELDS field;
  unsigned select_bit;  // PortCountersExtended:CounterSelect
};
constexpr ExtendedField kExtendedFields[] = {
    {counters::Counter::xmit_data, IB_PC_EXT_XMT_BYTES_F, 0},
    {counters::Counter::rcv_data, IB_PC_EXT_RCV_BYTES_F, 1},
    {counters::Counter::xmit_pkts, IB_PC_EXT_XMT_PKTS_F, 2},
    {counters::Counter::rcv_pkts, IB_PC_EXT_RCV_PKTS_F, 3},
};

MadQuery pma_query(unsigned lid, std::uint16_t attribute) {
  MadQuery query;
  query.lid = lid;
  query.mgmt_class = MgmtClass::performance;
  query.attribute = attribute;
  return query;
}

MadQuery port_query(unsigned lid, unsigned port, std::uint16_t attribute, MAD_FIELDS select) {
  MadQuery query = pma_query(lid, attribute);
  mad_set_field(query.data.data(), 0, select, port);
  return query;
}

}  // namespace

MadQuery class_port_info_query(unsigned lid) { return pma_query(lid, CLASS_PORT_INFO); }

PmaCapabilities decode_class_port_info(const MadData& data) {
  auto* raw = const_cast<std::uint8_t*>(data.data());
  return {static_cast<std::uint16_t>(mad_get_field(raw, 0, IB_CPI_CAPMASK_F)),
          mad_get_field(raw, 0, IB_CPI_CAPMASK2_F)};
}

std::uint32_t stored_capabilities(const PmaCapabilities& caps) {
  return kStoredMask2Known | (caps.mask2 & 0x7fffu) << 16 | caps.mask;
}

std::optional<PmaCapabilities> capabilities_from_stored(std::uint32_t stored) {
  if (!(stored & kStoredMask2Known)) return std::nullopt;
  return PmaCapabilities{static_cast<std::uint16_t>(stored & 0xffffu), (stored >> 16) & 0x7fffu};
}

MadQuery port_counters_query(unsigned lid, unsigned port) {
  return port_query(lid, port, IB_GSI_PORT_COUNTERS, IB_PC_PORT_SELECT_F);
}

MadQuery port_counters_extended_query(unsigned lid, unsigned port) {
  return port_query(lid, port, IB_GSI_PORT_COUNTERS_EXT, IB_PC_EXT_PORT_SELECT_F);
}

CounterReads plan_counter_reads(const PmaCapabilities& caps) {
  CounterReads plan;
  if (caps.all_extended()) {
    plan.reads[plan.count++] = CounterRead::extended_all;
    return plan;
  }
  plan.reads[plan.count++] = CounterRead::port_counters;
  if (caps.extended()) plan.reads[plan.count++] = CounterRead::extended_data;
  return plan;
}

MadQuery counter_read_query(CounterRead read, unsigned lid, unsigned port) {
  return read == CounterRead::port_counters ? port_counters_query(lid, port)
                                            : port_counters_extended_query(lid, port);
}

void decode_port_counters(const MadData& data, const PmaCapabilities& caps, CounterValues& values) {
  auto* raw = const_cast<std::uint8_t*>(data.data());
  for (const counters::CounterSpec& s : counters::counter_specs()) {
    const auto i = static_cast<std::size_t>(s.id);
    if (s.id == counters::Counter::xmit_wait && !caps.xmit_wait()) {
      values[i].reset();
      continue;
    }
    values[i] = mad_get_field(raw, 0, kPortCountersField[i]);
  }
}

void decode_port_counters_extended(const MadData& data, CounterValues& values) {
  auto* raw = const_cast<std::uint8_t*>(data.data());
  for (const ExtendedField& f : kExtendedFields)
    values[static_cast<std::size_t>(f.counter)] = mad_get_field64(raw, 0, f.field);
}

void decode_port_counters_extended_all(const MadData& data, const PmaCapabilities& caps,
                                       CounterValues& values) {
  auto* raw = const_cast<std::uint8_t*>(data.data());
  for (std::size_t i = 0; i < counters::kCounterCount; ++i)
    values[i] = mad_get_field64(raw, 0, kExtendedAllField[i]);
  if (!caps.xmit_wait()) values[static_cast<std::size_t>(counters::Counter::xmit_wait)].reset();
}

std::uint16_t counter_select(counters::CounterMask mask) {
  std::uint16_t select = 0;
  for (const counters::CounterSpec& s : counters::counter_specs()) {
    if (!(mask & counter_bit(s.id)) || s.id == counters::Counter::xmit_wait) continue;
    // Error counters are bits 0..11 in Counter order; data and packet counters bits 12..15.
    const auto i = static_cast<unsigned>(s.id);
    select |= static_cast<std::uint16_t>(1u << (i < 12 ? i : i - 1));
  }
  return select;
}

std::uint8_t counter_select2(counters::CounterMask mask) {
  return (mask & counters::counter_bit(counters::Counter::xmit_wait)) ? 1 : 0;
}

MadQuery reset_port_counters_query(unsigned lid, unsigned port, counters::CounterMask mask) {
  MadQuery query = port_counters_query(lid, port);
  query.method = MadMethod::set;
  mad_set_field(query.data.data(), 0, IB_PC_COUNTER_SELECT_F, counter_select(mask));
  mad_set_field(query.data.data(), 0, IB_PC_COUNTER_SELECT2_F, counter_select2(mask));
  return query;
}

std::uint32_t extended_counter_select2(counters::CounterMask mask) {
  // The error counters and PortXmitWait are Counter 0..12, in the attribute's order.
  return mask & (counters::counter_bit(counters::Counter::xmit_wait) * 2 - 1);
}

MadQuery reset_port_counters_extended_query(unsigned lid, unsigned port, counters::CounterMask mask,
                                            bool additional) {
  MadQuery query = port_counters_extended_query(lid, port);
  query.method = MadMethod::set;
  unsigned select = 0;
  for (const ExtendedField& f : kExtendedFields)
    if (mask & counters::counter_bit(f.counter)) select |= 1u << f.select_bit;
  mad_set_field(query.data.data(), 0, IB_PC_EXT_COUNTER_SELECT_F, select);
  if (additional)
    mad_set_field(query.data.data(), 0, IB_PC_EXT_COUNTER_SELECT2_F,
                  extended_counter_select2(mask));
  return query;
}

}  // namespace ibpm::mad
