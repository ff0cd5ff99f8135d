// SPDX-License-Identifier: MIT
// Traps 64/65 placed by the saved topology: a CA port's GID gives the switch at the far end of its
// cable, a switch's own port GUID gives that switch; a port the topology lacks is said once and
// queues nothing; a topology rewritten (a rediscovery) is read again.
#include <catch2/catch.hpp>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "port_locator.hpp"
#include "repoll_queue.hpp"
#include "support/temp_dir.hpp"
#include "trap_intake.hpp"
#include "unit/dump/sample_dumps.hpp"

using namespace ibpm::events;
using namespace std::chrono_literals;
namespace fs = std::filesystem;

namespace port_locator_test {

// Trap 64 or 65 for the port GUID `guid` (subnet prefix fe80::).
TrapRecord gid_trap(unsigned number, std::uint64_t guid) {
  TrapRecord trap;
  trap.trap_number = static_cast<std::uint16_t>(number);
  trap.issuer_lid = 1;
  trap.details[6] = 0xfe;
  trap.details[7] = 0x80;
  for (int i = 0; i < 8; ++i)
    trap.details[6 + 8 + i] = static_cast<std::uint8_t>(guid >> (56 - 8 * i));
  return trap;
}

void write(const fs::path& path, const std::string& text) { std::ofstream(path) << text; }

}  // namespace port_locator_test

using namespace port_locator_test;

TEST_CASE("PortLocator: a CA port's switch, a switch's own, none for a port it lacks") {
  ibpm::test::TempDir dir("port-locator");
  const fs::path topology = dir.path() / "topology.ibnetdiscover";
  write(topology, ibpm::test::kSample);
  PortLocator locator(topology.string());
  CHECK(locator.switch_lid(0xe41d2d030061f958) == 268u);  // the CA's port 1, cabled to lid 268
  CHECK(locator.switch_lid(0xf4521403005764b0) == 174u);  // the SX6012's port 0
  CHECK_FALSE(locator.switch_lid(0x1234).has_value());
  CHECK(locator.problem().empty());

  // Rediscovered: the CA now on the other switch.
  std::string moved = ibpm::test::replace_all(
      ibpm::test::kSample, "[34]\t\"H-e41d2d030061f957\"[1]", "[35]\t\"H-e41d2d030061f957\"[1]");
  moved =
      ibpm::test::replace_all(moved, "\"S-e41d2d030003e470\"[34]", "\"S-e41d2d030003e470\"[35]");
  write(topology, moved);
  fs::last_write_time(topology, fs::last_write_time(topology) + 1s);
  CHECK(locator.switch_lid(0xe41d2d030061f958) == 268u);

  PortLocator missing((dir.path() / "none").string());
  CHECK_FALSE(missing.switch_lid(0xe41d2d030061f958).has_value());
  CHECK(missing.problem().find("none") != std::string::npos);
}

TEST_CASE("Trap 65 for a host port re-polls its switch, one for an unknown port is said once") {
  ibpm::test::TempDir dir("port-locator-intake");
  const fs::path topology = dir.path() / "topology.ibnetdiscover";
  write(topology, ibpm::test::kSample);
  PortLocator locator(topology.string());
  RepollQueue queue{RepollLimits{.settle = 0ms}};
  std::vector<std::string> said;
  TrapIntake intake{queue, 256, [&](const std::string& line) { said.push_back(line); }, &locator};
  const auto now = RepollQueue::Clock::now();

  intake.take(gid_trap(65, 0xe41d2d030061f958), now, 1.0);
  REQUIRE(queue.waiting() == 1);
  CHECK(queue.start(now) == std::vector<unsigned>{268});
  REQUIRE(said.size() == 2);
  CHECK(said[0].find("out of service: its switch is LID 268") != std::string::npos);
  CHECK(said[1].find("re-poll of LID 268 queued") != std::string::npos);

  said.clear();
  for (int i = 0; i < 3; ++i) intake.take(gid_trap(64, 0x77), now, 2.0);
  CHECK(queue.waiting() == 0);
  REQUIRE(said.size() == 1);
  CHECK(said[0].find("in service: not in " + topology.string()) != std::string::npos);
  CHECK(intake.counts().ignored == 3);
}

TEST_CASE("Trap 64 for a port the topology lacks is handed to the join callback, 65 is not") {
  ibpm::test::TempDir dir("port-locator-join");
  const fs::path topology = dir.path() / "topology.ibnetdiscover";
  write(topology, ibpm::test::kSample);
  PortLocator locator(topology.string());
  RepollQueue queue{RepollLimits{.settle = 0ms}};
  std::vector<std::string> said;
  TrapIntake intake{queue, 256, [&](const std::string& line) { said.push_back(line); }, &locator};
  std::vector<ibpm::Guid> joins;
  intake.on_join([&](ibpm::Guid guid) { joins.push_back(guid); });
  const auto now = RepollQueue::Clock::now();

  // A node joined: each 64 asks (the listener keeps one lookup a minute), said once.
  for (int i = 0; i < 2; ++i) intake.take(gid_trap(64, 0x77), now, 1.0);
  CHECK(joins == std::vector<ibpm::Guid>{0x77, 0x77});
  REQUIRE(said.size() == 1);
  CHECK(said[0].find("a node joined: learnt at the SA and added to it by a re-poll") !=
        std::string::npos);
  CHECK(intake.counts().ignored == 0);
  // Out of service, or in the topology already: nothing to learn.
  intake.take(gid_trap(65, 0x78), now, 2.0);
  intake.take(gid_trap(64, 0xe41d2d030061f958), now, 3.0);
  CHECK(joins.size() == 2);
  CHECK(queue.waiting() == 1);  // the known port's switch
  // A topology that cannot be read learns nothing: its problem is said.
  fs::remove(topology);
  PortLocator gone(topology.string());
  TrapIntake blind{queue, 256, [&](const std::string& line) { said.push_back(line); }, &gone};
  blind.on_join([&](ibpm::Guid guid) { joins.push_back(guid); });
  blind.take(gid_trap(64, 0x79), now, 4.0);
  CHECK(joins.size() == 2);
}

TEST_CASE("Traps 144 and 145 name the LID of the node to re-poll") {
  for (unsigned number : {144u, 145u}) {
    TrapRecord trap;
    trap.generic = true;
    trap.trap_number = static_cast<std::uint16_t>(number);
    trap.details[2] = 0x01;
    trap.details[3] = 0x0c;
    CHECK(lid_to_repoll(trap) == 268u);
  }
}
