// SPDX-License-Identifier: MIT
// SMInfo and SMInfoRecord as the IBA lays them out, and the file a run leaves for the next.
#include <catch2/catch.hpp>

#include "mad/sm_info.hpp"
#include "sm/remembered_file.hpp"

using namespace ibpm;

TEST_CASE("sm codec: SMInfoRecords of one SA segment, up to the first empty record") {
  mad::MadData data{};
  // Record 0: LID 1, GUID 0x100001, ActCount 0x01020304, priority 10, master.
  data[1] = 1;
  data[4 + 5] = 0x10;
  data[4 + 7] = 0x01;
  data[4 + 16] = 1, data[4 + 17] = 2, data[4 + 18] = 3, data[4 + 19] = 4;
  data[4 + 20] = 0xa3;
  // Record 1 at byte 32: LID 300, GUID 0x3, priority 5, standby.
  data[32] = 1, data[33] = 44;
  data[32 + 4 + 7] = 3;
  data[32 + 4 + 20] = 0x52;
  const auto records = mad::decode_sm_info_records(data);
  REQUIRE(records.size() == 2);
  CHECK(records[0].lid == 1);
  CHECK(records[0].info.port_guid == 0x100001);
  CHECK(records[0].info.act_count == 0x01020304);
  CHECK(records[0].info.priority == 10);
  CHECK(records[0].info.state == 3);
  CHECK(records[1].lid == 300);
  CHECK(records[1].info.priority == 5);
  CHECK(records[1].info.state == 2);

  const auto query = mad::sm_info_records_query(7);
  CHECK(query.lid == 7);
  CHECK(query.mgmt_class == mad::MgmtClass::subnet_admin);
  CHECK(query.method == mad::MadMethod::get_table);
  CHECK(query.attribute == 0x18);
  CHECK(mad::sm_info_query(4).attribute == 0x20);
}

TEST_CASE("sm codec: what a run remembers reads back as written") {
  sm::Remembered r;
  r.sampled = sm::Clock::time_point(std::chrono::milliseconds(1'700'000'000'123));
  r.moved = sm::Clock::time_point(std::chrono::milliseconds(1'700'000'000'000));
  r.master = sm::SmSeen{0x100001, 1, "h1 HCA-1", 10, 3, 4000000000u};
  r.sms = {*r.master, sm::SmSeen{0x3, 3, "bad\nname", 5, 2, std::nullopt}};
  const sm::Remembered back = sm::parse_remembered(sm::format_remembered(r));
  CHECK(back.sampled == r.sampled);
  CHECK(back.moved == r.moved);
  REQUIRE(back.master);
  CHECK(back.master->name == "h1 HCA-1");
  CHECK(back.master->act_count == 4000000000u);
  REQUIRE(back.sms.size() == 2);
  CHECK(back.sms[1].name == "bad name");
  CHECK(back.sms[1].lid == 3);
  CHECK(back.sms[1].state == 2);
  CHECK_THROWS(sm::parse_remembered("something else\n"));
}
