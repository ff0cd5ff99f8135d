// SPDX-License-Identifier: MIT
// ibpm-events --sa on a simulated fabric with OpenSM running as a daemon: the listener subscribes
// at the master SM's SA to traps 64, 65, 128, 144 and 145 from its port; the SA lists the
// subscriptions (saquery IIR, and all five in OpenSM's own SA dump); after SIGTERM they are gone.
// With two OpenSMs (master and standby, as check_ib_sm's live test runs them), the listener is
// subscribed with the standby once it has taken over, within a bounded time.
//
// What the simulator cannot show: ibsim hands unsolicited MADs only to clients that opened the
// SM device, so the SA's Reports never reach the listener here (OpenSM accepts the subscription
// and sends its Reports into the void). The Report path (the ReportResp, the trap acted on, cut
// or malformed Reports, floods) is covered by the unit test test_sa_report. ibsim also carries
// one MAD of 256 bytes per packet, with no RMPP: an SA table arrives as its first segment, which
// holds 3 InformInfoRecords at most, so saquery (and the listener) see only part of the five;
// OpenSM's SA dump (sa_db_dump) lists them all.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "support/opensm_daemon.hpp"
#include "support/process.hpp"
#include "support/simulator.hpp"
#include "support/temp_dir.hpp"
#include "support/text_files.hpp"

using namespace ibpm::test;
using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

namespace sa_live_test {

// The listener attaches to the first node (h0); the SMs to h1 and h2.
constexpr const char* kSaNet = R"(Hca 1 "h0"
[1] "sw1"[1]

Hca 1 "h1"
[1] "sw1"[2]

Hca 1 "h2"
[1] "sw1"[3]

Switch 8 "sw1"
[1] "h0"[1]
[2] "h1"[1]
[3] "h2"[1]
)";

// check_ib_sm's live test's polling (a failover takes about 12 s), light sweeps 2 s apart: at
// each, OpenSM dumps the SA's subscriptions to OSM_TMP_DIR/opensm-sa.dump when they changed
// (sa_db_dump; forced heavy sweeps would never dump them).
constexpr const char* kSaOpensmConf =
    "sweep_interval 2\nsminfo_polling_timeout 3000\npolling_retry_number 3\nsa_db_dump TRUE\n"
    "force_log_flush TRUE\n";

const std::set<unsigned> kSaTraps{64, 65, 128, 144, 145};

// The fabric of these tests with one OpenSM (on h1) up, its files in the folder `name`.
struct OneSmFabric {
  explicit OneSmFabric(const std::string& name)
      : fabric(start_sa_fabric()), work(name), home(work.path() / "h1") {
    std::ofstream(work / "opensm.conf") << kSaOpensmConf;
    opensm = start_opensm_daemon(fabric, home, work / "opensm.conf", "h1");
    REQUIRE(log_says(home / "osm.log", "SUBNET UP", 60s));
  }
  static ibpm::sim::SimulatedFabric start_sa_fabric() {
    ibpm::sim::SimulatedFabric::Options options;
    options.run_subnet_manager = false;
    return ibpm::sim::SimulatedFabric::start_text(kSaNet, options);
  }
  ibpm::sim::SimulatedFabric fabric;
  TempDir work;
  std::filesystem::path home;
  std::unique_ptr<BackgroundProcess> opensm;
};

// The file's text, empty while there is none.
std::string text_of(const std::filesystem::path& path) {
  return std::filesystem::exists(path) ? read_text(path) : std::string();
}

// The generic trap numbers of the InformInfoRecords `saquery IIR` printed.
std::multiset<unsigned> saquery_traps(ibpm::sim::SimulatedFabric& fabric) {
  std::string out;
  std::string err;
  fabric.run_client({"saquery", "IIR"}, &out, &err);
  std::multiset<unsigned> traps;
  std::istringstream lines(out);
  bool generic = false;
  for (std::string line; std::getline(lines, line);) {
    if (line.find("is_generic..") != std::string::npos)
      generic = line.substr(line.find_last_of('.') + 1) == "0x1";
    if (generic && line.find("trap_num..") != std::string::npos)
      traps.insert(static_cast<unsigned>(std::stoul(line.substr(line.find_last_of('.') + 1))));
  }
  return traps;
}

// The generic trap numbers of the subscriptions in OpenSM's SA dump (nothing without one).
std::multiset<unsigned> dumped_traps(const std::filesystem::path& home) {
  std::multiset<unsigned> traps;
  std::istringstream lines(text_of(home / "opensm-sa.dump"));
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind("InformInfo Record:", 0) != 0 ||
        line.find(" is_generic=0x1") == std::string::npos)
      continue;
    const auto at = line.find(" trap_num=0x");
    if (at != std::string::npos)
      traps.insert(static_cast<unsigned>(std::stoul(line.substr(at + 12), nullptr, 16)));
  }
  return traps;
}

// Waits up to `limit` for `done`.
template <class Done>
bool sa_wait_for(Done done, std::chrono::seconds limit) {
  const auto end = Clock::now() + limit;
  while (!done()) {
    if (Clock::now() > end) return false;
    std::this_thread::sleep_for(100ms);
  }
  return true;
}

// ibpm-events --sa as a client of the simulation (its re-polls would be: /bin/true here, no
// Report arrives), its log and status in `work`.
std::unique_ptr<BackgroundProcess> start_sa_listener(ibpm::sim::SimulatedFabric& fabric,
                                                     const TempDir& work, unsigned check_s,
                                                     const std::vector<std::string>& more = {}) {
  std::vector<std::string> argv{"/usr/bin/env"};
  for (const std::string& var : fabric.client_env_overrides()) argv.push_back(var);
  argv.insert(argv.end(),
              {bin("ibpm-events"), "--sa", "--sa-check", std::to_string(check_s), "--socket",
               work / "events.sock", "--status-file", work / "listener.json"});
  argv.insert(argv.end(), more.begin(), more.end());
  argv.insert(argv.end(), {"--", "/bin/true"});
  return std::make_unique<BackgroundProcess>(argv, work / "listener.log");
}

// How many packets of `file` tshark shows through `filter` (nullopt without tshark).
std::optional<std::size_t> tshark_count(const std::string& file, const std::string& filter) {
  if (!std::filesystem::exists("/usr/bin/tshark")) return std::nullopt;
  const ProcessRun run = run_process({"/usr/bin/tshark", "-r", file, "-Y", filter},
                                     {.env = {}, .stderr_to = Stderr::discarded});
  if (run.exit_code != 0) return std::nullopt;
  return run.line_count();
}

ProcessRun sa_events_check(const TempDir& work) {
  return run_process({bin("check_ib_events"), "--status-file", work / "listener.json"});
}

}  // namespace sa_live_test

using namespace sa_live_test;

TEST_CASE("ibpm-events --sa subscribes at the SA, which lists it, and unsubscribes on SIGTERM") {
  IBPM_REQUIRE_SIMULATOR();
  OneSmFabric sa("events-sa");
  auto& [fabric, work, home, opensm] = sa;

  auto listener = start_sa_listener(fabric, work, 2);
  const std::filesystem::path log = work.path() / "listener.log";
  INFO(text_of(log));
  REQUIRE(log_says(log, "subscribed at the SA (SM LID ", 20s));
  CHECK(read_text(log).find("traps 64, 65, 128, 144, 145") != std::string::npos);

  // The SA lists the subscriptions: what saquery can show of them (see above), all five in
  // OpenSM's dump, each once.
  const std::multiset<unsigned> shown = saquery_traps(fabric);
  INFO("saquery IIR: " << shown.size() << " generic subscriptions");
  CHECK_FALSE(shown.empty());
  for (unsigned trap : shown) CHECK(kSaTraps.contains(trap));
  const std::multiset<unsigned> all(kSaTraps.begin(), kSaTraps.end());
  const bool dumped = sa_wait_for([&] { return dumped_traps(home) == all; }, 20s);
  INFO("opensm-sa.dump: " << text_of(home / "opensm-sa.dump"));
  CHECK(dumped);

  // Its status and its check: subscribed, confirmed at each --sa-check.
  // Two checks at least: the first subscribed, a later one confirmed.
  const auto checks = [&] {
    const std::string text = text_of(work / "listener.json");
    const auto at = text.find("\"checks\":");
    return at == std::string::npos ? 0 : std::stoi(text.substr(at + 9));
  };
  const bool checked = sa_wait_for([&] { return checks() >= 2; }, 10s);
  const std::string status = read_text(work / "listener.json");
  INFO(status << text_of(log));
  CHECK(checked);
  CHECK(status.find("\"subscribed\":true") != std::string::npos);
  CHECK(status.find("\"failures\":0,") != std::string::npos);
  const ProcessRun ok = sa_events_check(work);
  INFO(ok.out);
  CHECK(ok.exit_code == 0);
  CHECK(ok.first_line().find("listening: subscribed at the SA (SM LID ") != std::string::npos);

  // SIGTERM: every subscription removed at the SA before the listener ends.
  listener->stop();
  CHECK_FALSE(listener->running());
  CHECK(read_text(log).find("unsubscribed at the SA (SM LID ") != std::string::npos);
  CHECK(read_text(log).find("stopped: ") != std::string::npos);
  CHECK(saquery_traps(fabric).empty());
  CHECK(sa_wait_for([&] { return dumped_traps(home).empty(); }, 20s));
  // Gone, the check says so.
  CHECK(sa_events_check(work).exit_code == 2);
  opensm->stop();
}

TEST_CASE("ibpm-events --sa is subscribed with the standby SM once it has taken over") {
  IBPM_REQUIRE_SIMULATOR();
  ibpm::sim::SimulatedFabric::Options options;
  options.run_subnet_manager = false;
  auto fabric = ibpm::sim::SimulatedFabric::start_text(kSaNet, options);
  TempDir work("events-sa-failover");
  std::ofstream(work / "opensm.conf") << kSaOpensmConf;
  // The master first, alone, then the standby once the master has swept (two SMs discovering at
  // once can hang OpenSM under ibsim: see check_ib_sm's live test).
  auto master = start_opensm_daemon(fabric, work.path() / "h1", work / "opensm.conf", "h1", 10);
  REQUIRE(log_says(work.path() / "h1" / "osm.log", "SUBNET UP", 60s));
  auto standby = start_opensm_daemon(fabric, work.path() / "h2", work / "opensm.conf", "h2", 5);
  REQUIRE(log_says(work.path() / "h2" / "osm.log", "Entering STANDBY state", 60s));

  auto listener = start_sa_listener(fabric, work, 1);
  const std::filesystem::path log = work.path() / "listener.log";
  INFO(text_of(log));
  REQUIRE(log_says(log, "subscribed at the SA (SM LID ", 20s));
  const std::string first = read_text(log);
  const auto lid_at = first.find("subscribed at the SA (SM LID ") + 29;
  const std::string master_lid = first.substr(lid_at, first.find(')', lid_at) - lid_at);

  // The master ends (by its pid); the standby takes over and the listener follows it.
  const Clock::time_point stopped = Clock::now();
  master->stop();
  REQUIRE(log_says(log, "the master SM is now LID ", 90s));
  REQUIRE(log_says(log, "(was " + master_lid + "): subscribing with it", 1s));
  const std::string after = read_text(log);
  const auto moved = after.find("the master SM is now LID ");
  const std::string new_lid = after.substr(moved + 25, after.find(' ', moved + 25) - moved - 25);
  CHECK(new_lid != master_lid);
  REQUIRE(log_says(log, "subscribed at the SA (SM LID " + new_lid + ")", 10s));
  const double seconds = std::chrono::duration<double>(Clock::now() - stopped).count();
  WARN("master stopped to subscribed with the new master: " << seconds << " s");
  CHECK(seconds < 60);

  // The new master's SA lists the subscription; the status says who holds it.
  const std::multiset<unsigned> all(kSaTraps.begin(), kSaTraps.end());
  CHECK(sa_wait_for([&] { return dumped_traps(work.path() / "h2") == all; }, 20s));
  CHECK_FALSE(saquery_traps(fabric).empty());
  CHECK(sa_wait_for(
      [&] {
        return read_text(work / "listener.json")
                   .find("\"subscribed\":true,\"sm_lid\":" + new_lid + ",") != std::string::npos;
      },
      5s));
  const std::string status = read_text(work / "listener.json");
  INFO(status);
  CHECK(status.find("\"master_changes\":1,") != std::string::npos);
  CHECK(sa_events_check(work).exit_code == 0);
  listener->stop();
  CHECK(read_text(log).find("unsubscribed at the SA (SM LID " + new_lid + ")") !=
        std::string::npos);
  standby->stop();
}

TEST_CASE("check_ib_events judges the SA way in from the listener's status") {
  TempDir work("events-sa-check");
  const std::string status = work / "listener.json";
  const double now =
      std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
  const std::string pid = std::to_string(::getpid());  // a process that runs: this one
  // A listener started 10 minutes ago with --sa (checks every 60 s), the plugin heard at
  // `heard` (0: never).
  const auto check = [&](bool subscribed, double confirmed, const std::string& failure,
                         double heard) {
    write_text(status, "{\"pid\":" + pid + ",\"started\":" + std::to_string(now - 600) +
                           ",\"socket\":\"/run/ibpm-events/events.sock\",\"traps\":4," +
                           "\"last_heard\":" + std::to_string(heard) +
                           ",\"heartbeat_s\":" + (heard > 0 ? "30" : "0") +
                           ",\"last_drop\":0,\"plugin_dropped\":0,\"dropped\":0,\"repolls\":3,"
                           "\"last_repoll_exit\":0,\"sa\":{\"port\":\"mlx5_0 port 1\","
                           "\"subscribed\":" +
                           (subscribed ? "true" : "false") + ",\"sm_lid\":7,\"last_confirmed\":" +
                           std::to_string(confirmed) + ",\"check_s\":60,\"last_failure\":\"" +
                           failure + "\",\"reports\":12}}\n");
    return run_process({bin("check_ib_events"), "--status-file", status});
  };
  // Subscribed, confirmed 20 s ago, no plugin: OK (the plugin is not what this site uses).
  const ProcessRun ok = check(true, now - 20, "", 0);
  INFO(ok.out);
  CHECK(ok.exit_code == 0);
  CHECK(ok.first_line().find("listening: subscribed at the SA (SM LID 7), confirmed 20 s ago, "
                             "4 traps, 3 re-polls") != std::string::npos);
  CHECK(ok.has(" sa_confirmed_age=20."));
  CHECK(ok.has("sa_reports=12c"));
  // Not subscribed: CRITICAL, naming why.
  const ProcessRun refused =
      check(false, now - 20, "subscribing to trap 128 at the SA (SM LID 7): MAD status 0x0300", 0);
  INFO(refused.out);
  CHECK(refused.exit_code == 2);
  CHECK(refused.first_line().find("not subscribed at the SA: subscribing to trap 128 at the SA "
                                  "(SM LID 7): MAD status 0x0300") != std::string::npos);
  CHECK(check(false, 0, "", 0).first_line().find("not subscribed at the SA yet") !=
        std::string::npos);
  // Subscribed, but not confirmed for more than three checks: CRITICAL, naming the last failure.
  const ProcessRun stale =
      check(true, now - 200, "asking the SA for its InformInfoRecords: no answer from LID 7", 0);
  INFO(stale.out);
  CHECK(stale.exit_code == 2);
  CHECK(stale.first_line().find("the SA subscription (SM LID 7) not confirmed for 200 s (a check "
                                "every 60 s): asking the SA") != std::string::npos);
  // A plugin beside the SA that falls silent: WARNING only, the SA still brings the traps.
  const ProcessRun silent = check(true, now - 20, "", now - 400);
  INFO(silent.out);
  CHECK(silent.exit_code == 1);
  CHECK(silent.has("not heard from the OpenSM plugin for 400 s (the SA still brings the traps)"));
}

TEST_CASE("ibpm-events --sa --record writes the SA way in as tshark decodes it") {
  IBPM_REQUIRE_SIMULATOR();
  OneSmFabric sa("events-sa-record");
  auto& [fabric, work, home, opensm] = sa;

  const std::string recording = work / "sa.pcap";
  auto listener = start_sa_listener(fabric, work, 60, {"--record", recording});
  const std::filesystem::path log = work.path() / "listener.log";
  REQUIRE(log_says(log, "subscribed at the SA (SM LID ", 20s));
  listener->stop();  // SIGTERM: the five subscriptions removed, each answered
  INFO(text_of(log));
  REQUIRE(read_text(log).find("unsubscribed at the SA (SM LID ") != std::string::npos);
  REQUIRE(std::filesystem::exists(recording));

  // The port's PortInfo (who the master is), the SA's InformInfoRecord table, and a
  // SubnAdmSet(InformInfo) for each trap on the way in and on the way out, each answered.
  const std::string inform_info =
      "infiniband.mad.mgmtclass == 0x03 && "
      "infiniband.mad.attributeid == 0x0003 && infiniband.mad.method";
  const auto sets = tshark_count(recording, inform_info + " == 0x02");
  const auto answers = tshark_count(recording, inform_info + " == 0x81");
  const auto port_info = tshark_count(
      recording, "infiniband.mad.attributeid == 0x0015 && infiniband.mad.method == 0x81");
  const auto table = tshark_count(
      recording, "infiniband.mad.attributeid == 0x00f3 && infiniband.mad.method == 0x12");
  if (!sets || !answers || !port_info || !table) IBPM_SKIP("no tshark to decode the recording");
  INFO(run_process(
           {"/usr/bin/tshark", "-r", recording, "-T", "fields", "-e", "infiniband.mad.mgmtclass",
            "-e", "infiniband.mad.method", "-e", "infiniband.mad.attributeid", "-e",
            "infiniband.lrh.slid", "-e", "infiniband.lrh.dlid"},
           {.env = {}, .stderr_to = Stderr::merged})
           .out);
  CHECK(*sets >= 2 * kSaTraps.size());
  CHECK(*answers == *sets);
  CHECK(*port_info >= 1);
  CHECK(*table >= 1);
  opensm->stop();
}

TEST_CASE("ibpm-events --record without --sa is refused") {
  const ProcessRun run =
      run_process({bin("ibpm-events"), "--record", "/tmp/x.pcap", "--", "/bin/true"},
                  {.env = {}, .stderr_to = Stderr::merged});
  CHECK(run.exit_code != 0);
  CHECK(run.out.find("--sa") != std::string::npos);
}
