// SPDX-License-Identifier: MIT
// The OpenSM event plugin (events/opensm-plugin) loaded by OpenSM running as a daemon on a
// simulated fabric: a cable unlinked on ibsim's console reaches a bound TrapSocket as a trap 128
// record from the switch, ReLink as another; with nobody listening OpenSM keeps running, the plugin
// counts what it could not hand over and says so once in OpenSM's log, and a listener bound again
// is found by the next trap.
#include <poll.h>
#include <time.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <future>
#include <memory>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "events/trap_socket.hpp"
#include "support/opensm_daemon.hpp"
#include "support/process.hpp"
#include "support/simulator.hpp"
#include "support/temp_dir.hpp"

using namespace ibpm::test;
using namespace std::chrono_literals;
using ibpm::events::TrapRecord;
using ibpm::events::TrapSocket;
using Clock = std::chrono::steady_clock;

namespace {

// OpenSM and the test's clients attach to h0; the cable unlinked is sw2[2] (h3's).
constexpr const char* kNet = R"(Hca 1 "h0"
[1] "sw1"[1]

Hca 1 "h1"
[1] "sw1"[2]

Hca 1 "h2"
[1] "sw2"[1]

Hca 1 "h3"
[1] "sw2"[2]

Switch 8 "sw1"
[1] "h0"[1]
[2] "h1"[1]
[3] "sw2"[3]

Switch 8 "sw2"
[1] "h2"[1]
[2] "h3"[1]
[3] "sw1"[3]
)";

std::string read_text(const std::string& path) {
  std::ifstream in(path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

std::size_t count_of(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

// The first record of trap `trap` read from `socket` within `limit` (others read are kept in
// `seen`), with the time it was read.
struct Received {
  TrapRecord record;
  Clock::time_point at;
};
std::optional<Received> wait_for_trap(TrapSocket& socket, int trap, std::chrono::milliseconds limit,
                                      std::vector<TrapRecord>& seen) {
  const auto end = Clock::now() + limit;
  for (;;) {
    while (auto record = socket.receive()) {
      seen.push_back(*record);
      if (record->trap_number == trap) return Received{*record, Clock::now()};
    }
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(end - Clock::now());
    if (left <= 0ms) return std::nullopt;
    pollfd p{socket.fd(), POLLIN, 0};
    ::poll(&p, 1, static_cast<int>(left.count()));
  }
}

std::uint64_t realtime_ns() {
  timespec ts{};
  clock_gettime(CLOCK_REALTIME, &ts);
  return static_cast<std::uint64_t>(ts.tv_sec) * 1'000'000'000u + ts.tv_nsec;
}

std::string traps_of(const std::vector<TrapRecord>& seen) {
  std::string text = "records read:";
  for (const TrapRecord& r : seen)
    text += " " + std::to_string(r.trap_number) + "@" + std::to_string(r.issuer_lid) + "#" +
            std::to_string(r.sequence);
  return text;
}

// A cable changed on the console while the socket is watched from another thread, then the trap
// 128 it gives awaited; prints the latency from the command to the plugin's send and to the read.
std::optional<Received> change_and_wait(ibpm::sim::SimulatedFabric& fabric, TrapSocket& socket,
                                        const std::string& command, std::vector<TrapRecord>& seen) {
  const std::uint64_t command_ns = realtime_ns();
  const auto command_at = Clock::now();
  auto waiting =
      std::async(std::launch::async, [&] { return wait_for_trap(socket, 128, 5000ms, seen); });
  fabric.console(command);
  auto got = waiting.get();
  if (got) {
    const double received_ms =
        std::chrono::duration<double, std::milli>(got->at - command_at).count();
    const double sent_ms = (static_cast<double>(got->record.sent_ns) - command_ns) / 1e6;
    std::printf(
        "event plugin: %s -> trap 128 from LID %u sent by the plugin %.2f ms after the "
        "command, read by the listener after %.2f ms\n",
        command.c_str(), got->record.issuer_lid, sent_ms, received_ms);
  }
  return got;
}

// What OpenSM said, for a failure's message.
std::string opensm_said(const TempDir& dir) {
  return "OpenSM's log:\n" + read_text(dir / "osm.log") + read_text(dir / "opensm.stdout");
}

}  // namespace

TEST_CASE("the OpenSM event plugin hands trap 128 to a local socket and never blocks OpenSM") {
  IBPM_REQUIRE_SIMULATOR();
  if (std::string(IBPM_EVENT_PLUGIN).empty())
    IBPM_SKIP("the OpenSM event plugin was not built (apt-get install libopensm-dev)");
  ibpm::sim::SimulatedFabric::Options options;
  options.run_subnet_manager = false;
  auto fabric = ibpm::sim::SimulatedFabric::start_text(kNet, options);
  TempDir dir("event-plugin");
  const std::string path = dir / "events.sock";
  const std::string log = dir / "osm.log";
  auto socket = std::make_unique<TrapSocket>(path);
  auto opensm = start_opensm_with_plugin(fabric, dir.path(), path, IBPM_EVENT_PLUGIN);

  const bool loaded = log_says(log, "ibpm: handing traps to " + path, 30s);
  const bool up = loaded && log_says(log, "SUBNET UP", 60s);
  INFO(opensm_said(dir));
  REQUIRE(loaded);
  REQUIRE(up);
  const Discovery discovery = discover(fabric);
  REQUIRE(discovery.lids.count("sw2"));
  std::set<int> switch_lids;
  for (const std::string& s : discovery.switches) switch_lids.insert(discovery.lids.at(s));
  const int sw2 = discovery.lids.at("sw2");

  // What the first sweep reported (OpenSM's own trap 64 for each port it brought up) is not
  // what is tested here.
  std::vector<TrapRecord> seen;
  wait_for_trap(*socket, -1, 500ms, seen);
  seen.clear();

  // A cable down: trap 128 from its switch, within a few seconds.
  const auto down = change_and_wait(fabric, *socket, "Unlink \"sw2\"[2]", seen);
  INFO(traps_of(seen) << "\n" << opensm_said(dir));
  REQUIRE(down);
  CHECK(switch_lids.count(down->record.issuer_lid));
  CHECK(down->record.issuer_lid == sw2);
  CHECK(down->record.details_u16(0) == sw2);  // trap 128's data: the switch's LID
  CHECK(down->record.generic);
  CHECK(down->record.producer_type == 2);  // a switch
  CHECK(down->record.dropped == 0);
  CHECK(socket->malformed() == 0);

  // Back up: another 128.
  const auto relinked = change_and_wait(fabric, *socket, "ReLink \"sw2\"[2]", seen);
  INFO(traps_of(seen) << "\n" << opensm_said(dir));
  REQUIRE(relinked);
  CHECK(relinked->record.issuer_lid == sw2);
  CHECK(relinked->record.sequence > down->record.sequence);
  CHECK(relinked->record.dropped == 0);
  CHECK(read_text(log).find("cannot hand traps") == std::string::npos);

  // Nobody listening: the traps of a cable down (128, then OpenSM's 65) are dropped, counted and
  // said once in OpenSM's log; OpenSM keeps running and sweeping.
  socket.reset();
  REQUIRE_FALSE(std::filesystem::exists(path));
  const auto quiet_from = relinked->record.sequence;
  fabric.console("Unlink \"sw2\"[2]");
  CHECK(log_says(log, "ibpm: cannot hand traps to " + path, 5s));
  std::this_thread::sleep_for(2s);  // the heavy sweep's trap 65 dropped too
  CHECK(opensm->running());
  INFO(opensm_said(dir));
  CHECK(count_of(read_text(log), "ibpm: cannot hand traps to") == 1);

  // A listener bound again is found by the next trap, whose record says what was dropped.
  socket = std::make_unique<TrapSocket>(path);
  seen.clear();
  const auto back = change_and_wait(fabric, *socket, "ReLink \"sw2\"[2]", seen);
  INFO(traps_of(seen) << "\n" << opensm_said(dir));
  REQUIRE(back);
  CHECK(back->record.issuer_lid == sw2);
  CHECK(back->record.dropped >= 1);
  CHECK(back->record.sequence >= quiet_from + 2);
  std::printf("event plugin: %u traps dropped while nobody listened\n", back->record.dropped);
  CHECK(log_says(log, "ibpm: handing traps to " + path + " again", 5s));
  CHECK(count_of(read_text(log), "ibpm: cannot hand traps to") == 1);
  CHECK(opensm->running());

  opensm->stop();
  CHECK(log_says(log, "not handed to " + path, 5s));  // the plugin's delete() ran
}
