// SPDX-License-Identifier: MIT

#include <catch2/catch.hpp>

#include "fabric/types.hpp"

using namespace ibpm;

TEST_CASE("link capacity follows width / speed and line encoding") {
  // 8b/10b up to QDR
  CHECK(link_capacity_bps(LinkWidth::x1, LinkSpeed::sdr) == 2'000'000'000ull);
  CHECK(link_capacity_bps(LinkWidth::x4, LinkSpeed::sdr) == 8'000'000'000ull);
  CHECK(link_capacity_bps(LinkWidth::x4, LinkSpeed::ddr) == 16'000'000'000ull);
  CHECK(link_capacity_bps(LinkWidth::x4, LinkSpeed::qdr) == 32'000'000'000ull);
  CHECK(link_capacity_bps(LinkWidth::x12, LinkSpeed::qdr) == 96'000'000'000ull);
  // 64b/66b from FDR10 on
  CHECK(link_capacity_bps(LinkWidth::x4, LinkSpeed::fdr10) == 40'000'000'000ull);
  CHECK(link_capacity_bps(LinkWidth::x4, LinkSpeed::fdr) == 54'545'454'544ull);
  CHECK(link_capacity_bps(LinkWidth::x4, LinkSpeed::edr) == 100'000'000'000ull);
  CHECK(link_capacity_bps(LinkWidth::x4, LinkSpeed::hdr) == 200'000'000'000ull);
  CHECK(link_capacity_bps(LinkWidth::x2, LinkSpeed::hdr) == 100'000'000'000ull);
  CHECK(link_capacity_bps(LinkWidth::x4, LinkSpeed::ndr) == 400'000'000'000ull);
  CHECK(link_capacity_bps(LinkWidth::x4, LinkSpeed::xdr) == 800'000'000'000ull);
}

TEST_CASE("FDR10 carries more data than QDR at the same signalling rate") {
  CHECK(lane_data_rate_bps(LinkSpeed::fdr10) > lane_data_rate_bps(LinkSpeed::qdr));
  CHECK(LinkSpeed::fdr10 < LinkSpeed::fdr);
}

TEST_CASE("widths and speeds parse in either case and print canonically") {
  CHECK(parse_link_width("4x") == LinkWidth::x4);
  CHECK(parse_link_width("12X") == LinkWidth::x12);
  CHECK_FALSE(parse_link_width("3x"));
  CHECK(parse_link_speed("FDR10") == LinkSpeed::fdr10);
  CHECK(parse_link_speed("hdr") == LinkSpeed::hdr);
  CHECK_FALSE(parse_link_speed("???"));
  CHECK(to_string(LinkWidth::x12) == "12x");
  CHECK(to_string(LinkSpeed::ndr) == "NDR");
}

TEST_CASE("GUIDs print with 0x and 16 digits and parse back") {
  CHECK(format_guid(0x2c90300a1b2c3ull) == "0x0002c90300a1b2c3");
  CHECK(format_guid(0) == "0x0000000000000000");
  CHECK(format_guid(~0ull) == "0xffffffffffffffff");
  CHECK(parse_guid("0x0002c90300a1b2c3") == 0x2c90300a1b2c3ull);
  CHECK(parse_guid("3048ffff9386f2") == 0x3048ffff9386f2ull);
  CHECK_FALSE(parse_guid("0x"));
  CHECK_FALSE(parse_guid("0x12345678901234567"));  // 17 digits
  CHECK_FALSE(parse_guid("xyz"));
  CHECK_FALSE(parse_guid("12 34"));
}

TEST_CASE("enum sets report their largest member") {
  WidthSet widths;
  CHECK(widths.empty());
  widths.insert(LinkWidth::x1);
  widths.insert(LinkWidth::x4);
  CHECK(widths.max() == LinkWidth::x4);
  CHECK(widths.contains(LinkWidth::x1));
  CHECK_FALSE(widths.contains(LinkWidth::x12));
}
