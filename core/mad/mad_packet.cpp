// SPDX-License-Identifier: MIT
// Encoding a query with libibmad, and reading its transaction id and answer back out.

#include "mad/mad_packet.hpp"

#include <infiniband/mad.h>

#include <algorithm>
#include <cstring>
#include <string>

namespace ibpm::mad {

namespace {

int data_size(MgmtClass mgmt_class) {
  switch (mgmt_class) {
    case MgmtClass::subnet:
      return IB_SMP_DATA_SIZE;
    case MgmtClass::subnet_admin:
      return IB_SA_DATA_SIZE;
    case MgmtClass::performance:
      break;
  }
  return IB_PC_DATA_SZ;
}

// The MAD behind a packet's umad header (umad_get_mad takes a non-const pointer).
void* mad_of(const std::uint8_t* packet) { return umad_get_mad(const_cast<std::uint8_t*>(packet)); }

}  // namespace

std::size_t data_offset(MgmtClass mgmt_class) {
  return mgmt_class == MgmtClass::subnet_admin ? IB_SA_DATA_OFFS : kMadDataOffset;
}

namespace {

// Where a query goes: QP0 for an SMP, QP1 with the well-known Q_Key for the other classes.
ib_portid_t destination_of(const MadQuery& query) {
  ib_portid_t destination{};
  destination.lid = static_cast<int>(query.lid);
  if (query.mgmt_class != MgmtClass::subnet) {
    destination.qp = 1;
    destination.qkey = IB_DEFAULT_QP1_QKEY;
  }
  return destination;
}

}  // namespace

int build_packet(const MadQuery& query, Packet& packet) {
  packet.fill(0);
  ib_rpc_t rpc{};
  rpc.mgtclass = static_cast<int>(query.mgmt_class);
  rpc.method = static_cast<int>(query.method);
  rpc.attr.id = query.attribute;
  rpc.attr.mod = query.modifier;
  rpc.dataoffs = static_cast<int>(data_offset(query.mgmt_class));
  rpc.datasz = data_size(query.mgmt_class);
  rpc.mask = query.component_mask;
  rpc.trid = 1;  // replaced before each send; nonzero keeps libibmad's own counter untouched

  ib_portid_t destination = destination_of(query);
  // libibmad copies rpc.datasz bytes from here: the SA's data area (200 bytes from byte 56) is
  // longer than a MadData, so the query's data goes into a buffer of a whole MAD.
  std::array<std::uint8_t, kMadSize> data{};
  std::copy(query.data.begin(), query.data.end(), data.begin());
  const int length = mad_build_pkt(packet.data(), &rpc, &destination, nullptr, data.data());
  if (length < 0) throw MadError("cannot encode a MAD for LID " + std::to_string(query.lid));
  return length;
}

int PacketEncoder::build(const MadQuery& query, Packet& packet) {
  const Kind kind{query.mgmt_class, query.method, query.attribute, query.component_mask};
  const auto known = std::find_if(kinds_.begin(), kinds_.end(),
                                  [&kind](const Encoded& e) { return e.kind == kind; });
  if (known == kinds_.end()) {
    const int length = build_packet(query, packet);
    kinds_.push_back(Encoded{kind, packet, length});
    return length;
  }
  packet = known->packet;
  // The address as mad_build_pkt sets it for a LID-routed query without GRH (an SMP's SL and
  // Q_Key are 0, as destination_of leaves them).
  const ib_portid_t destination = destination_of(query);
  umad_set_addr(packet.data(), destination.lid, destination.qp, destination.sl, destination.qkey);
  void* mad = umad_get_mad(packet.data());
  mad_set_field(mad, 0, IB_MAD_ATTRMOD_F, query.modifier);
  // libibmad copies the payload's whole data area (the rest of it zeros).
  auto* data = static_cast<std::uint8_t*>(mad) + data_offset(query.mgmt_class);
  std::fill_n(data, data_size(query.mgmt_class), std::uint8_t{0});
  std::copy(query.data.begin(), query.data.end(), data);
  return known->length;
}

void set_tid(Packet& packet, std::uint32_t tid) {
  mad_set_field64(umad_get_mad(packet.data()), 0, IB_MAD_TRID_F, tid);
}

std::uint32_t tid_of(const std::uint8_t* received) {
  return static_cast<std::uint32_t>(mad_get_field64(mad_of(received), 0, IB_MAD_TRID_F));
}

bool is_response(const std::uint8_t* received) {
  return mad_get_field(mad_of(received), 0, IB_MAD_RESPONSE_F) != 0;
}

void read_answer(const std::uint8_t* received, MadReply& reply) {
  void* mad = mad_of(received);
  reply.mad_status = static_cast<std::uint16_t>(mad_get_field(mad, 0, IB_MAD_STATUS_F));
  const auto klass = static_cast<MgmtClass>(mad_get_field(mad, 0, IB_MAD_MGMTCLASS_F));
  std::memcpy(reply.data.data(), static_cast<std::uint8_t*>(mad) + data_offset(klass),
              reply.data.size());
}

}  // namespace ibpm::mad
