// SPDX-License-Identifier: MIT
// Whether a poll's answers say its topology is out of date: another node at a LID (moved) wins
// over a LID that did not answer (silent); cut ports and right answers say nothing.
#include <catch2/catch.hpp>
#include <memory>

#include "poll/stale_topology.hpp"

using namespace ibpm;
using namespace ibpm::poll;

namespace {

PortResult result(Guid expected, std::optional<Guid> answered_as, bool answered, bool cut = false) {
  PortResult r;
  PortTarget target;
  target.node = expected;
  target.port = 1;
  r.target = std::make_shared<const PortTarget>(target);
  r.sample.answered = answered;
  r.sample.cut = cut;
  r.sample.answered_as = answered_as;
  return r;
}

}  // namespace

TEST_CASE("topology_staleness: answers as the topology says are current") {
  CHECK(topology_staleness({}) == Staleness::current);
  CHECK(topology_staleness({result(0x10, 0x10, true), result(0x20, std::nullopt, true)}) ==
        Staleness::current);
}

TEST_CASE("topology_staleness: a port cut by the deadline says nothing") {
  CHECK(topology_staleness({result(0x10, std::nullopt, false, true)}) == Staleness::current);
}

TEST_CASE("topology_staleness: a LID that did not answer is silent") {
  CHECK(topology_staleness({result(0x10, 0x10, true), result(0x20, std::nullopt, false)}) ==
        Staleness::silent);
}

TEST_CASE("topology_staleness: another node at a LID is moved, whatever else") {
  CHECK(topology_staleness({result(0x20, std::nullopt, false), result(0x10, 0x99, true)}) ==
        Staleness::moved);
  CHECK(topology_staleness({result(0x10, 0x99, false)}) == Staleness::moved);
}
