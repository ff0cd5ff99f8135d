// SPDX-License-Identifier: MIT
// InFlightTable: transaction ids that name their slot; late, duplicate and foreign ids not found.

#include <catch2/catch.hpp>
#include <set>

#include "mad/in_flight_table.hpp"

using namespace ibpm::mad;

namespace {
using Table = InFlightTable<int>;
}  // namespace

TEST_CASE("the table holds the window rounded up to a power of two") {
  std::uint32_t last_tid = 0;
  CHECK(Table(64, last_tid).capacity() == 64);
  CHECK(Table(5, last_tid).capacity() == 8);
  CHECK(Table(1, last_tid).capacity() == 1);
  CHECK(Table(0, last_tid).capacity() == 1);
}

TEST_CASE("each try's id names its slot, and the slot is found by it") {
  std::uint32_t last_tid = 0;
  Table table(4, last_tid);
  std::set<std::uint32_t> tids;
  std::uint32_t previous = 0;
  for (int query = 0; query < 4; ++query) {
    const std::size_t slot = table.acquire();
    table[slot] = query;
    const std::uint32_t tid = table.assign_tid(slot);
    CHECK((tid & 3) == slot);
    CHECK(tid > previous);  // ids rise
    previous = tid;
    tids.insert(tid);
    REQUIRE(table.find(tid) == slot);
    CHECK(table[*table.find(tid)] == query);
  }
  CHECK(table.size() == 4);
  CHECK(tids.size() == 4);
}

TEST_CASE("the late answer to an earlier try of a query is not found once the query is retried") {
  std::uint32_t last_tid = 0;
  Table table(8, last_tid);
  const std::size_t slot = table.acquire();
  const std::uint32_t first = table.assign_tid(slot);
  const std::uint32_t retry = table.assign_tid(slot);
  CHECK(retry > first);
  CHECK(retry % 8 == first % 8);
  CHECK_FALSE(table.find(first));
  CHECK(table.find(retry) == slot);
}

TEST_CASE("a duplicate answer is not found, not even once the slot holds another query") {
  std::uint32_t last_tid = 0;
  Table table(2, last_tid);
  const std::size_t slot = table.acquire();
  const std::uint32_t answered = table.assign_tid(slot);
  table.release(slot);
  CHECK_FALSE(table.find(answered));
  CHECK(table.empty());

  REQUIRE(table.acquire() == slot);  // the slot freed last is taken first
  const std::uint32_t next = table.assign_tid(slot);
  CHECK(next != answered);
  CHECK_FALSE(table.find(answered));
  CHECK(table.find(next) == slot);
}

TEST_CASE("ids no try in flight has are not found: 0, foreign ones, those of an earlier run") {
  std::uint32_t last_tid = 0;
  std::vector<std::uint32_t> earlier;
  {
    Table run(16, last_tid);  // an earlier run with a larger window; its tries never answered
    for (int i = 0; i < 16; ++i) earlier.push_back(run.assign_tid(run.acquire()));
  }
  Table table(4, last_tid);
  for (int i = 0; i < 4; ++i) {
    const std::uint32_t tid = table.assign_tid(table.acquire());
    CHECK(tid > earlier.back());
  }
  for (std::uint32_t tid : earlier) CHECK_FALSE(table.find(tid));
  CHECK_FALSE(table.find(0));
  CHECK_FALSE(table.find(last_tid + 1));  // another agent's id, or one not given yet
  CHECK_FALSE(table.find(0xffffffff));
}

TEST_CASE("ids skip 0 when the 32 bits wrap") {
  std::uint32_t last_tid = 0xfffffff0;
  Table table(16, last_tid);
  const std::size_t slot = table.acquire();
  REQUIRE(slot == 0);
  // The next id above 0xfffffff0 whose low 4 bits are 0 would be 2^32, that is 0.
  const std::uint32_t tid = table.assign_tid(slot);
  CHECK(tid == 16);
  CHECK(last_tid == 16);
  CHECK(table.find(tid) == slot);
}

TEST_CASE("for_each visits the slots in use in slot order, and none after clear") {
  std::uint32_t last_tid = 0;
  Table table(4, last_tid);
  for (int i = 0; i < 3; ++i) table[table.acquire()] = 10 + i;
  table.release(1);
  std::vector<std::pair<std::size_t, int>> seen;
  table.for_each([&](std::size_t slot, int item) { seen.emplace_back(slot, item); });
  CHECK(seen == std::vector<std::pair<std::size_t, int>>{{0, 10}, {2, 12}});
  table.clear();
  CHECK(table.empty());
  seen.clear();
  table.for_each([&](std::size_t slot, int item) { seen.emplace_back(slot, item); });
  CHECK(seen.empty());
}
