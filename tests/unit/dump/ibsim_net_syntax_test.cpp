// The ibsim net file pieces both net writers share.
#include "dump/ibsim_net_syntax.hpp"

#include <catch2/catch.hpp>

using namespace ibpm;

TEST_CASE("ibsim net records, port links and trailers", "[dump][ibsim]") {
  CHECK(ibsim_node_record(true, 36) == "Switch\t36");
  CHECK(ibsim_node_record(false, 2) == "Hca\t2");
  CHECK(ibsim_port_link(1, "spine01", 3) == "[1]\t\"spine01\"[3]");
  CHECK(ibsim_link_trailer("spine01", LinkWidth::x4, LinkSpeed::hdr) == "\"spine01\" lid 0 4xHDR");
  CHECK(ibsim_link_trailer("cn0001", LinkWidth::x1, LinkSpeed::fdr10) ==
        "\"cn0001\" lid 0 1xFDR10");
}

TEST_CASE("ibsim's default table sizes", "[dump][ibsim]") {
  CHECK(kIbsimDefaultLimits.nodes == 2048);
  CHECK(kIbsimDefaultLimits.switches == 256);
  CHECK(kIbsimDefaultLimits.ports == 13312);
}
