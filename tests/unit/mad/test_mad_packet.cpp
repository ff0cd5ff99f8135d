// SPDX-License-Identifier: MIT
// PacketEncoder against libibmad's packet builder: every query of a mixed run encoded to the same
// bytes as build_packet gives it alone.
#include <catch2/catch.hpp>

#include "mad/mad_packet.hpp"
#include "mad/pma.hpp"
#include "mad/sm_info.hpp"
#include "mad/smp.hpp"

using namespace ibpm;
using namespace ibpm::mad;

namespace {

// Queries of every kind the engine sends, kinds interleaved and repeated with other LIDs, ports,
// modifiers and payloads, as a sweep, a reset and a route read mix them.
std::vector<MadQuery> mixed_queries() {
  std::vector<MadQuery> queries;
  for (unsigned lid : {1u, 0x1234u, 0xbfffu}) {
    for (unsigned port : {1u, 17u, 255u}) {
      queries.push_back(port_counters_query(lid, port));
      queries.push_back(port_counters_extended_query(lid, port));
      queries.push_back(port_info_query(lid, port));
      queries.push_back(reset_port_counters_query(
          lid, port, counters::counter_bit(counters::Counter::symbol_errors)));
      queries.push_back(reset_port_counters_query(lid, port, ~counters::CounterMask{0}));
      queries.push_back(
          reset_port_counters_extended_query(lid, port, ~counters::CounterMask{0}, port % 2 == 1));
    }
    queries.push_back(class_port_info_query(lid));
    queries.push_back(node_info_query(lid));
    queries.push_back(switch_info_query(lid));
    queries.push_back(node_description_query(lid));
    queries.push_back(sm_info_query(lid));
    queries.push_back(sm_info_records_query(lid));
    for (unsigned block : {0u, 3u, 767u}) queries.push_back(lft_block_query(lid, block));
  }
  return queries;
}

}  // namespace

TEST_CASE("PacketEncoder gives every query of a mixed run build_packet's bytes and length") {
  PacketEncoder encoder;
  Packet reused{};  // the engine's slots are reused: whatever was in them must not show through
  reused.fill(0xa5);
  std::size_t n = 0;
  for (const MadQuery& query : mixed_queries()) {
    INFO("query " << n++ << ": LID " << query.lid << ", attribute 0x" << std::hex << query.attribute
                  << ", modifier 0x" << query.modifier);
    Packet alone{};
    const int expected = build_packet(query, alone);
    const int length = encoder.build(query, reused);
    CHECK(length == expected);
    CHECK(reused == alone);
  }
  CHECK(n == 3 * (3 * 6 + 6 + 3));  // every query was compared
}
