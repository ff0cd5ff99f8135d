// SPDX-License-Identifier: MIT
// The switches of a re-poll that did not end OK are read once more a delay later (a far end
// unreachable until the subnet manager moved its routes), and a recheck is not rechecked.
#include <catch2/catch.hpp>
#include <chrono>

#include "recheck_list.hpp"

using ibpm::events::RecheckList;
using namespace std::chrono_literals;

namespace {

const RecheckList::Clock::time_point r0 = RecheckList::Clock::time_point() + 1000s;

}  // namespace

TEST_CASE("recheck: a re-poll that did not end OK is read once more after the delay, once") {
  RecheckList list(10s);
  list.ended({5, 7}, 0, r0);  // OK: nothing to read again
  CHECK_FALSE(list.next_due());
  list.ended({5, 7}, 2, r0);
  list.ended({7}, 1, r0 + 1s);  // waiting already: not twice
  CHECK(list.waiting() == 2);
  REQUIRE(list.next_due());
  CHECK(*list.next_due() == r0 + 10s);
  CHECK(list.due(r0 + 9s).empty());
  CHECK(list.due(r0 + 10s) == std::vector<unsigned>{5, 7});
  CHECK_FALSE(list.next_due());
  CHECK(list.rechecked() == 2);
  // The recheck ends CRITICAL again (the link is still down): not rechecked again...
  list.ended({5, 7}, 2, r0 + 11s);
  CHECK_FALSE(list.next_due());
  // ...but a later trap's re-poll of the same switch that does not end OK is.
  list.ended({5}, 2, r0 + 60s);
  REQUIRE(list.next_due());
  CHECK(*list.next_due() == r0 + 70s);
}

TEST_CASE("recheck: a delay of 0 rechecks nothing") {
  RecheckList list(0ms);
  list.ended({5}, 2, r0);
  CHECK_FALSE(list.next_due());
  CHECK(list.due(r0 + 1h).empty());
}
