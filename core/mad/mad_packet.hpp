// SPDX-License-Identifier: MIT
// The packets of the MAD engine: a query encoded as umad header and MAD, the transaction id set
// per try, and what an answer carries read back out.
#pragma once

#include <infiniband/umad.h>

#include <array>
#include <cstdint>
#include <vector>

#include "mad/mad_engine.hpp"

namespace ibpm::mad {

// A umad header and a MAD: held in place, so a query costs no allocation of its own.
using Packet = std::array<std::uint8_t, sizeof(ib_user_mad_t) + kMadSize>;

// Encodes the query with libibmad's packet builder and returns the MAD bytes to send; the
// transaction id is set per try (set_tid). Throws MadError when it cannot be encoded.
int build_packet(const MadQuery& query, Packet& packet);

// build_packet for the many queries of a run, which come in a few kinds: libibmad encodes the
// first query of each kind (class, method, attribute, SA component mask), and the next ones of
// that kind are a copy of it with their own destination LID, attribute modifier and payload put
// in, the only fields in which such queries differ. The same bytes as build_packet's (unit
// tests), at a fraction of its cost: the MAD engine encodes every query of a sweep.
class PacketEncoder {
 public:
  int build(const MadQuery& query, Packet& packet);

 private:
  struct Kind {
    MgmtClass mgmt_class;
    MadMethod method;
    std::uint16_t attribute;
    std::uint64_t component_mask;
    bool operator==(const Kind&) const = default;
  };
  struct Encoded {
    Kind kind;
    Packet packet;
    int length;
  };
  std::vector<Encoded> kinds_;  // a handful: PortCounters, PortCountersExtended, PortInfo...
};

void set_tid(Packet& packet, std::uint32_t tid);

// The low 32 bits of a received packet's transaction id (the kernel owns the high ones).
std::uint32_t tid_of(const std::uint8_t* received);

// Whether a received packet is a response (not a request sent to us).
bool is_response(const std::uint8_t* received);

// A response's MAD status and attribute data, into `reply`.
void read_answer(const std::uint8_t* received, MadReply& reply);

}  // namespace ibpm::mad
