// SPDX-License-Identifier: MIT
// ibpm-events on a simulated fabric with OpenSM running as a daemon and loading the event plugin:
// a cable unlinked gives, with no sweep running, a CRITICAL result for its switch naming both
// cable ends in Nagios's spool and an event in the events file, within a second; linked again,
// OK; the listener stops on SIGTERM. The time from the console command to the spool file is
// printed.
#include <signal.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <filesystem>
#include <list>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "listener_with_opensm.hpp"
#include "support/live_fabric.hpp"
#include "support/opensm_daemon.hpp"
#include "support/process.hpp"
#include "support/simulator.hpp"
#include "support/skip.hpp"
#include "support/temp_dir.hpp"
#include "support/text_files.hpp"

using namespace ibpm::test;
namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

namespace {

// One result of a spool file.
struct SpoolResult {
  std::string host;
  int code = -1;
  double finish = 0;
  std::string text;
  Clock::time_point seen;
};

// "KEY=value" of a result block.
std::string field_of(const std::string& block, const std::string& key) {
  const auto at = block.find("\n" + key + "=");
  if (at == std::string::npos) return "";
  const auto start = at + key.size() + 2;
  return block.substr(start, block.find('\n', start) - start);
}

// The results of the spool files not in `old`, each file's blocks apart.
std::vector<SpoolResult> spool_results(const fs::path& spool, const std::set<std::string>& old) {
  std::vector<SpoolResult> results;
  static const std::string marker = "### Nagios Service Check Result ###";
  for (const auto& entry : fs::directory_iterator(spool)) {
    const std::string name = entry.path().filename().string();
    if (name.ends_with(".ok") || name.front() == '.' || old.contains(name)) continue;
    const std::string text = read_text(entry.path());
    for (auto at = text.find(marker); at != std::string::npos;) {
      const auto next = text.find(marker, at + 1);
      const std::string block = text.substr(at, next == std::string::npos ? next : next - at);
      const std::string code = field_of(block, "return_code");
      const std::string finish = field_of(block, "finish_time");
      if (!code.empty() && !finish.empty())
        results.push_back(SpoolResult{field_of(block, "host_name"), std::stoi(code),
                                      std::stod(finish), block, Clock::now()});
      at = next;
    }
  }
  return results;
}

// The newest new result of `host`, if any.
std::optional<SpoolResult> spool_result(const fs::path& spool, const std::string& host,
                                        const std::set<std::string>& old) {
  std::optional<SpoolResult> found;
  for (SpoolResult& r : spool_results(spool, old))
    if (r.host == host && (!found || r.finish >= found->finish)) found = std::move(r);
  return found;
}

std::set<std::string> files_in(const fs::path& dir) {
  std::set<std::string> names;
  for (const auto& entry : fs::directory_iterator(dir)) names.insert(entry.path().filename());
  return names;
}

// Waits up to `limit` for a new spool result of `host` with return code `code`.
std::optional<SpoolResult> wait_for_result(const fs::path& spool, const std::string& host, int code,
                                           const std::set<std::string>& old,
                                           std::chrono::seconds limit) {
  const auto end = Clock::now() + limit;
  while (Clock::now() < end) {
    if (auto result = spool_result(spool, host, old); result && result->code == code) return result;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return std::nullopt;
}

}  // namespace

TEST_CASE("ibpm-events delivers a switch's new state seconds after its trap, with no sweep") {
  IBPM_REQUIRE_SIMULATOR();
  if (std::string(IBPM_EVENT_PLUGIN).empty())
    IBPM_SKIP("the OpenSM event plugin was not built (apt-get install libopensm-dev)");
  LiveFabric live = LiveFabric::start();
  TempDir work("events-listener");
  const std::string state = work / "state";
  const fs::path spool = work.path() / "spool";
  const std::string events = work / "events.log";
  const std::string socket = work / "events.sock";
  const std::string status = work / "listener.json";
  fs::create_directories(spool);
  // The sweep the timer runs: the topology and every port's first sample.
  const std::vector<std::string> outputs{"--state-dir",   state,  "--no-syslog",
                                         "--events-file", events, "--nagios-spool",
                                         spool.string(),  "-t",   "20"};
  REQUIRE(live.run("check_ib_fabric", outputs).exit_code == 0);

  // The listener, as a client of the simulation (its re-polls are), then OpenSM with the plugin.
  ListenerWithOpenSm running = start_listener_with_opensm(
      live, work.path(), socket, {"--status-file", status, "--min-interval", "200"}, outputs);
  INFO(read_text(work / "listener.log"));

  const std::string peer = live.peer_name("leaf06", 9);
  const std::string cable_a = "leaf06[9] <-> " + peer;
  const std::string cable_b = peer + " <-> leaf06[9]";
  std::set<std::string> old = files_in(spool);
  const Clock::time_point unlinked = Clock::now();
  live.console("Unlink \"leaf06\"[9]");
  ConsoleUndo relink(live, "ReLink \"leaf06\"[9]");
  const std::optional<SpoolResult> down =
      wait_for_result(spool, "leaf06", 2, old, std::chrono::seconds(10));
  INFO(read_text(work / "listener.log"));
  REQUIRE(down);
  const double down_s = std::chrono::duration<double>(down->seen - unlinked).count();
  WARN("Unlink to CRITICAL in the spool: " << down_s << " s");
  CHECK((down->text.find(cable_a) != std::string::npos ||
         down->text.find(cable_b) != std::string::npos));
  CHECK(down->text.find("link Down") != std::string::npos);
  INFO("events: " << read_text(events));
  CHECK(log_says(events, "leaf06[9]", std::chrono::seconds(2)));
  CHECK(read_text(events).find("CRITICAL: link Down") != std::string::npos);
  CHECK(down_s < 5.0);

  // Linked again: OK, the same way.
  old = files_in(spool);
  const Clock::time_point relinked = Clock::now();
  live.console("ReLink \"leaf06\"[9]");
  const std::optional<SpoolResult> up =
      wait_for_result(spool, "leaf06", 0, old, std::chrono::seconds(10));
  REQUIRE(up);
  CHECK(log_says(events, "CRITICAL -> OK", std::chrono::seconds(2)));
  WARN("ReLink to OK in the spool: " << std::chrono::duration<double>(up->seen - relinked).count()
                                     << " s");

  // Its status says what it did; SIGTERM stops it.
  const std::string health = read_text(status);
  CHECK(health.find("\"repolls\":") != std::string::npos);
  CHECK(health.find("\"repolls\":0,") == std::string::npos);
  CHECK(health.find("\"128\":") != std::string::npos);
  CHECK(health.find("\"heartbeat_s\":30,") != std::string::npos);  // the plugin said it is there
  CHECK(read_text(work / "listener.log").find("the OpenSM plugin is there") != std::string::npos);
  // Its check: OK while it listens and hears the plugin; CRITICAL once nothing was heard for
  // --stale seconds, and once the listener is gone.
  const auto events_check = [&](std::vector<std::string> more) {
    more.insert(more.begin(), {bin("check_ib_events"), "--status-file", status});
    return run_process(more);
  };
  const ProcessRun listening = events_check({});
  INFO(listening.out);
  CHECK(listening.exit_code == 0);
  CHECK(listening.first_line().rfind("IB EVENTS OK - listening: the OpenSM plugin heard ", 0) == 0);
  std::this_thread::sleep_for(std::chrono::milliseconds(2100));
  const ProcessRun quiet = events_check({"--stale", "2"});
  INFO(quiet.out);
  CHECK(quiet.exit_code == 2);
  CHECK(quiet.first_line().find("not heard from the OpenSM plugin for ") != std::string::npos);
  running.listener->stop();
  CHECK_FALSE(running.listener->running());
  const ProcessRun gone = events_check({});
  INFO(gone.out);
  CHECK(gone.exit_code == 2);
  CHECK(gone.first_line().find(") is not running: traps reach no one") != std::string::npos);
  CHECK(read_text(work / "listener.log").find("stopped: ") != std::string::npos);
  running.opensm->stop();
}

TEST_CASE("check_ib_events judges the listener's status file") {
  TempDir work("events-check");
  const std::string status = work / "listener.json";
  const auto check = [&](const std::string& json) {
    write_text(status, json);
    return run_process({bin("check_ib_events"), "--status-file", status});
  };
  const double now =
      std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
  const std::string pid = std::to_string(::getpid());  // a process that runs: this one
  const auto status_with = [&](double heard, double drop, int exit) {
    return "{\"pid\":" + pid + ",\"started\":" + std::to_string(now - 600) +
           ",\"socket\":\"/run/ibpm-events/events.sock\",\"traps\":4,\"last_heard\":" +
           std::to_string(heard) + ",\"heartbeat_s\":30,\"last_drop\":" + std::to_string(drop) +
           ",\"plugin_dropped\":0,\"dropped\":2,\"repolls\":3,\"last_repoll_exit\":" +
           std::to_string(exit) + "}\n";
  };
  const ProcessRun ok = check(status_with(now - 5, 0, 2));
  INFO(ok.out);
  CHECK(ok.exit_code == 0);
  CHECK(ok.first_line().find(" 4 traps, 3 re-polls | heard_age=") != std::string::npos);
  const ProcessRun stale = check(status_with(now - 100, 0, 0));
  CHECK(stale.exit_code == 2);
  CHECK(stale.first_line().find("not heard from the OpenSM plugin for 100 s") != std::string::npos);
  const ProcessRun never = check(status_with(0, 0, 0));
  CHECK(never.exit_code == 2);
  CHECK(never.first_line().find("never heard from the OpenSM plugin") != std::string::npos);
  const ProcessRun dropped = check(status_with(now - 5, now - 60, 0));
  CHECK(dropped.exit_code == 1);
  CHECK(dropped.out.find("past the re-poll budget") != std::string::npos);
  const ProcessRun unknown_repoll = check(status_with(now - 5, 0, 3));
  CHECK(unknown_repoll.exit_code == 1);
  const ProcessRun garbage = check("not json at all");
  CHECK(garbage.exit_code == 3);
  CHECK(garbage.first_line().find(": not a listener's status") != std::string::npos);
  std::filesystem::remove(status);
  const ProcessRun missing = run_process({bin("check_ib_events"), "--status-file", status});
  CHECK(missing.exit_code == 2);
  CHECK(missing.first_line().find("the listener is not running") != std::string::npos);
}

TEST_CASE(
    "a storm of traps costs no more MADs than a sweep and ends in every switch's true state") {
  // 52 Unlink/ReLink commands on five host cables within about a second, two left down: the
  // listener coalesces the traps into a few re-polls whose MADs add up to less than one sweep's,
  // and the last result each leaf gets tells its cable as it is (Down while it is out).
  IBPM_REQUIRE_SIMULATOR();
  if (std::string(IBPM_EVENT_PLUGIN).empty())
    IBPM_SKIP("the OpenSM event plugin was not built (apt-get install libopensm-dev)");
  LiveFabric live = LiveFabric::start();
  TempDir work("events-storm");
  const std::string state = work / "state";
  const fs::path spool = work.path() / "spool";
  const std::string socket = work / "events.sock";
  fs::create_directories(spool);
  const std::vector<std::string> outputs{"--state-dir",  state, "--no-syslog", "--nagios-spool",
                                         spool.string(), "-t",  "20"};
  const ProcessRun sweep = live.run("check_ib_fabric", outputs);
  REQUIRE(sweep.exit_code == 0);
  const auto mads_of = [](const std::string& text) {
    double total = 0;
    for (auto at = text.find(" mads="); at != std::string::npos; at = text.find(" mads=", at + 1))
      total += std::stod(text.substr(at + 6));
    return total;
  };
  const double sweep_mads = mads_of(sweep.out);
  REQUIRE(sweep_mads > 0);

  ListenerWithOpenSm running = start_listener_with_opensm(
      live, work.path(), socket, {"--status-file", work / "listener.json"}, outputs);
  const std::string before_storm = read_text(work / "listener.log");

  // Host cables (not the collector's, cn0001 on leaf01[1]): the storm changes no route between
  // the switches, so what the switches say at the end is theirs alone to tell.
  const std::vector<std::pair<std::string, int>> cables{
      {"leaf02", 1}, {"leaf03", 2}, {"leaf04", 3}, {"leaf05", 4}, {"leaf06", 5}};
  std::list<ConsoleUndo> undo;  // (not movable: a list makes them in place)
  for (const auto& [node, port] : cables)
    undo.emplace_back(live, "ReLink \"" + node + "\"[" + std::to_string(port) + "]");
  const std::set<std::string> old = files_in(spool);
  const Clock::time_point storm = Clock::now();
  std::map<std::string, bool> down;  // "leaf01[7]" -> down now
  const auto command = [&](const std::string& node, int port, bool take_down) {
    live.console((take_down ? "Unlink \"" : "ReLink \"") + node + "\"[" + std::to_string(port) +
                 "]");
    down[node + "[" + std::to_string(port) + "]"] = take_down;
  };
  // Every cable toggled ten times (all up again), then leaf02[1] and leaf03[2] down: 52 commands.
  for (int round = 0; round < 10; ++round)
    for (const auto& [node, port] : cables) command(node, port, round % 2 == 0);
  command("leaf02", 1, true);
  command("leaf03", 2, true);
  const double storm_s = std::chrono::duration<double>(Clock::now() - storm).count();
  WARN("52 console commands in " << storm_s << " s");
  // Quiet: the listener's last re-poll done, none waiting.
  std::this_thread::sleep_for(std::chrono::seconds(5));
  const std::string log = read_text(work / "listener.log").substr(before_storm.size());
  INFO(log.substr(log.size() > 6000 ? log.size() - 6000 : 0));

  // The last result of each leaf of a stormed cable tells its link as it is: CRITICAL naming the
  // cable Down while it is out, no Down once it is back (the discards the flapping caused while
  // traffic ran may keep a leaf WARNING or CRITICAL: that is the sweep's rule too).
  for (const auto& [node, port] : cables) {
    const std::string name = node + "[" + std::to_string(port) + "]";
    const std::optional<SpoolResult> last = spool_result(spool, node, old);
    INFO(name);
    REQUIRE(last);
    INFO(last->text);
    const bool said_down = last->text.find(name + " <-> " + live.peer_name(node, port) +
                                           " link Down") != std::string::npos;
    CHECK(said_down == down[name]);
    if (down[name]) CHECK(last->code == 2);
  }
  const double repoll_mads = mads_of(log);
  const std::size_t repolls = [&] {
    std::size_t n = 0;
    for (auto at = log.find("re-polling LID"); at != std::string::npos;
         at = log.find("re-polling LID", at + 1))
      ++n;
    return n;
  }();
  WARN("storm: " << repolls << " re-polls, " << repoll_mads << " MADs; one sweep: " << sweep_mads
                 << " MADs");
  CHECK(repolls >= 1);
  CHECK(repoll_mads <= sweep_mads);
  running.listener->stop();
  running.opensm->stop();
}

TEST_CASE("ibpm-events: a cable brought back at a lower width gives WARNING, with no sweep") {
  // Both ends of leaf06[9] enable only 1X (a PortInfo Set, as ibportstate sends it: ibsim brings a
  // link up at what both ends enable, and OpenSM leaves LinkWidthEnabled as it is), then the
  // cable is unlinked and linked again: CRITICAL, then WARNING for the width under the baseline's
  // 4X, each from the listener's re-poll.
  IBPM_REQUIRE_SIMULATOR();
  if (std::string(IBPM_EVENT_PLUGIN).empty())
    IBPM_SKIP("the OpenSM event plugin was not built (apt-get install libopensm-dev)");
  LiveFabric live = LiveFabric::start();
  TempDir work("events-width");
  const fs::path spool = work.path() / "spool";
  const std::string socket = work / "events.sock";
  fs::create_directories(spool);
  const std::vector<std::string> outputs{
      "--state-dir", work / "state", "--no-syslog", "--nagios-spool", spool.string(), "-t", "20"};
  REQUIRE(live.run("check_ib_fabric", outputs).exit_code == 0);
  ListenerWithOpenSm running = start_listener_with_opensm(
      live, work.path(), socket, {"--status-file", work / "listener.json", "--min-interval", "200"},
      outputs);

  const std::string peer = live.peer_name("leaf06", 9);  // "spine03[6]"
  const std::string spine = peer.substr(0, peer.find('['));
  const std::string spine_port =
      peer.substr(peer.find('[') + 1, peer.find(']') - peer.find('[') - 1);
  const Discovery found = discover(live.fabric);
  const auto enable_width = [&](const std::string& node, const std::string& port,
                                const std::string& width) {
    std::vector<std::string> command{"/usr/bin/env"};
    for (const std::string& var : live.fabric.client_env_overrides()) command.push_back(var);
    command.insert(command.end(),
                   {"ibportstate", std::to_string(found.lids.at(node)), port, "width", width});
    const ProcessRun set = run_process(command);
    INFO(set.out << set.err);
    REQUIRE(set.exit_code == 0);
  };
  // Each Set makes the switch send trap 144, and OpenSM sweeps: set again until both ends keep 1X.
  const auto enabled_1x = [&](const std::string& node, const std::string& port) {
    std::vector<std::string> command{"/usr/bin/env"};
    for (const std::string& var : live.fabric.client_env_overrides()) command.push_back(var);
    command.insert(command.end(), {"ibportstate", std::to_string(found.lids.at(node)), port});
    const std::string out = run_process(command).out;
    return out.find("LinkWidthEnabled:") != std::string::npos &&
           out.find("LinkWidthEnabled:................1X\n") != std::string::npos &&
           out.find("LinkWidthActive:.................1X\n") != std::string::npos;
  };
  bool narrowed = false;
  for (int attempt = 0; attempt < 5 && !narrowed; ++attempt) {
    enable_width("leaf06", "9", "1");
    enable_width(spine, spine_port, "1");
    std::this_thread::sleep_for(std::chrono::seconds(2));
    narrowed = enabled_1x("leaf06", "9") && enabled_1x(spine, spine_port);
  }
  REQUIRE(narrowed);
  ConsoleUndo relink(live, "ReLink \"leaf06\"[9]");
  std::set<std::string> old = files_in(spool);
  live.console("Unlink \"leaf06\"[9]");
  const std::optional<SpoolResult> down =
      wait_for_result(spool, "leaf06", 2, old, std::chrono::seconds(10));
  INFO(read_text(work / "listener.log"));
  REQUIRE(down);
  old = files_in(spool);
  const std::string before_relink = read_text(work / "listener.log");
  const auto relinked = Clock::now();
  live.console("ReLink \"leaf06\"[9]");
  const std::optional<SpoolResult> narrow =
      wait_for_result(spool, "leaf06", 1, old, std::chrono::seconds(10));
  INFO("after ReLink: " << read_text(work / "listener.log").substr(before_relink.size()));
  REQUIRE(narrow);
  INFO(narrow->text);
  CHECK(narrow->text.find("link degraded: 1x HDR, expected 4x HDR") != std::string::npos);
  CHECK(narrow->text.find(peer) != std::string::npos);  // both cable ends named
  CHECK(narrow->text.find("link Down") == std::string::npos);
  WARN("ReLink at 1X to WARNING in the spool: "
       << std::chrono::duration<double>(narrow->seen - relinked).count() << " s");
  running.listener->stop();
  running.opensm->stop();
}

namespace {

// The value of "key": N in the listener's status file; -1 when absent.
long status_count(const std::string& status, const std::string& key) {
  const std::string text = read_text(status);
  const auto at = text.find("\"" + key + "\":");
  if (at == std::string::npos) return -1;
  return std::stol(text.substr(at + key.size() + 3));
}

}  // namespace

TEST_CASE("ibpm-events reads the switches of a re-poll that did not end OK once more") {
  IBPM_REQUIRE_SIMULATOR();
  if (std::string(IBPM_EVENT_PLUGIN).empty())
    IBPM_SKIP("the OpenSM event plugin was not built (apt-get install libopensm-dev)");
  LiveFabric live = LiveFabric::start();
  TempDir work("events-recheck");
  const std::string state = work / "state";
  const fs::path spool = work.path() / "spool";
  const std::string socket = work / "events.sock";
  const std::string status = work / "listener.json";
  fs::create_directories(spool);
  const std::vector<std::string> outputs{"--state-dir",  state, "--no-syslog", "--nagios-spool",
                                         spool.string(), "-t",  "20"};
  REQUIRE(live.run("check_ib_fabric", outputs).exit_code == 0);
  ListenerWithOpenSm running = start_listener_with_opensm(
      live, work.path(), socket,
      {"--status-file", status, "--min-interval", "200", "--recheck", "2"}, outputs);
  INFO(read_text(work / "listener.log"));

  // An uplink of the collector's own leaf: the collector's route to the spine at its far end
  // crosses it until OpenSM moves the routes, so that spine may be unreachable at the first read.
  const std::string collector_leaf = live.peer_name("cn0001", 1);
  const std::string leaf = collector_leaf.substr(0, collector_leaf.find('['));
  const std::string far_end = live.peer_name(leaf, 8);
  const std::string spine = far_end.substr(0, far_end.find('['));
  const std::set<std::string> old = files_in(spool);
  live.console("Unlink \"" + leaf + "\"[8]");
  ConsoleUndo relink(live, "ReLink \"" + leaf + "\"[8]");
  REQUIRE(wait_for_result(spool, leaf, 2, old, std::chrono::seconds(10)));
  // The spine says the cable is down too, whatever its route did meanwhile.
  const std::optional<SpoolResult> far =
      wait_for_result(spool, spine, 2, old, std::chrono::seconds(15));
  INFO(read_text(work / "listener.log"));
  REQUIRE(far);
  CHECK(far->text.find(far_end + " <-> " + leaf + "[8]") != std::string::npos);
  // The re-polls ended CRITICAL: their switches are read once more 2 s later, and only once.
  CHECK(log_says(work / "listener.log", " again: its re-poll did not end OK",
                 std::chrono::seconds(10)));
  const auto end = Clock::now() + std::chrono::seconds(10);
  while (status_count(status, "rechecked") < 1 && Clock::now() < end)
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  std::this_thread::sleep_for(std::chrono::seconds(4));  // the rechecks' own re-polls ended
  const long rechecked = status_count(status, "rechecked");
  CHECK(rechecked >= 1);
  std::this_thread::sleep_for(std::chrono::seconds(5));  // two more --recheck periods
  CHECK(status_count(status, "rechecked") == rechecked);
  running.listener->stop();
  running.opensm->stop();
}
