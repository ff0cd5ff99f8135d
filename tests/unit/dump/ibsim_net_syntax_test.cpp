// SPDX-License-Identifier: MIT
// The ibsim net file pieces both net writers share.
#include "dump/ibsim_net_syntax.hpp"

#include <catch2/catch.hpp>

using namespace ibpm;

TEST_CASE("ibsim net records, port links and trailers", "[dump][ibsim]") {
  CHECK(dump::ibsim_node_record(true, 36) == "Switch\t36");
  CHECK(dump::ibsim_node_record(false, 2) == "Hca\t2");
  CHECK(dump::ibsim_port_link(1, "spine01", 3) == "[1]\t\"spine01\"[3]");
  CHECK(dump::ibsim_link_trailer("spine01", LinkWidth::x4, LinkSpeed::hdr) ==
        "\"spine01\" lid 0 4xHDR");
  CHECK(dump::ibsim_link_trailer("cn0001", LinkWidth::x1, LinkSpeed::fdr10) ==
        "\"cn0001\" lid 0 1xFDR10");
}

TEST_CASE("ibsim's default table sizes", "[dump][ibsim]") {
  CHECK(dump::kIbsimDefaultLimits.nodes == 2048);
  CHECK(dump::kIbsimDefaultLimits.switches == 256);
  CHECK(dump::kIbsimDefaultLimits.ports == 13312);
}
