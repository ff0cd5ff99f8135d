// SPDX-License-Identifier: MIT
// Icinga 2 runs each configuration ibpm-nagios-config writes for it whole, on its own schedule,
// as a site runs it: nothing forced and no option handed to a check by the test. Each mode: the
// active switch services (check_ib_node per switch, the default), the passive ones (the sweep
// submits every switch's result through the API over TLS as the generated ApiUser, by client
// certificate), and both in satellite zones (a master and a satellite per zone on the loopback,
// the zones' folders synced by the master as include_zones makes them; each satellite runs its
// shard's sweep and its switches' checks, and with passive services its sweep submits to its own
// API, the generated "https://" + NodeName + ":5665"). Every host and service reaches a checked
// state within a few intervals: every host UP, every service OK but ib-sm (no subnet manager runs
// here), none stale by freshness. Symbol errors on a leaf port turn that leaf's ib-node CRITICAL
// and HARD, naming the cable, and the sweep that polls the port CRITICAL; the other switches stay
// OK.
#include <algorithm>
#include <catch2/catch.hpp>
#include <chrono>
#include <filesystem>
#include <functional>
#include <iostream>
#include <list>
#include <map>
#include <random>
#include <regex>
#include <string>
#include <thread>
#include <vector>

#include "check_wrappers.hpp"
#include "daemon_support.hpp"
#include "icinga_daemon.hpp"
#include "support/live_fabric.hpp"
#include "support/process.hpp"
#include "support/rrdcached_daemon.hpp"
#include "support/simulator.hpp"
#include "support/skip.hpp"
#include "support/temp_dir.hpp"
#include "support/text_files.hpp"

using namespace ibpm::test;
using namespace ibpm::nagios_test;
namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

namespace icinga_schedule_test {

// Switch services active or passive, in one daemon or in satellite zones.
struct Mode {
  bool passive = false;
  bool zones = false;
  std::string name() const {
    return std::string(passive ? "passive" : "active") + (zones ? "-zones" : "");
  }
};

constexpr int kInterval = 4;  // seconds between checks (--check-interval)
constexpr int kZones = 2;

std::string describe(const std::map<std::string, nlohmann::json>& objects) {
  std::string text;
  for (const auto& [name, attrs] : objects) {
    text += name + ": state " + attrs.at("state").dump() + " (" + attrs.at("state_type").dump() +
            ") in " + attrs.at("zone").dump();
    if (attrs.at("last_check_result").is_object())
      text += " from " + attrs.at("last_check_result").at("check_source").dump() + ": " +
              attrs.at("last_check_result").at("output").get<std::string>().substr(0, 160);
    text += "\n";
  }
  return text;
}

// "ib-zone-K" -> PREFIX + K: the endpoint that runs a zone's checks (--zone-prefix left at its
// default); the master's zone -> "master".
std::string endpoint_of_zone(const std::string& prefix, const std::string& zone) {
  return zone.rfind("ib-zone-", 0) == 0 ? prefix + zone.substr(8) : zone;
}

// A loopback network of its own for the satellites, "127.A.B." (their names and addresses are
// PREFIX1, PREFIX2): each binds the default API port 5665 there.
std::string loopback_prefix() {
  std::random_device random;
  return "127." + std::to_string(1 + random() % 254) + "." + std::to_string(random() % 256) + ".";
}

void run_on_own_schedule(Mode mode) {
  IBPM_REQUIRE_SIMULATOR();
  if (find_program("icinga2").empty() || find_program("openssl").empty() ||
      find_program("curl").empty() || !fs::exists("/usr/lib/nagios/plugins/negate"))
    IBPM_SKIP(
        "icinga2, openssl, curl or negate not installed (apt-get install icinga2-bin openssl "
        "curl monitoring-plugins-basic)");
  LiveFabric live = LiveFabric::start();
  TempDir work("icinga-schedule-" + mode.name());
  const std::string state = work / "state";
  const std::string objects = work / "ibpm";
  const fs::path plugins = work.path() / "plugins";
  const fs::path ca = work.path() / "ca";
  fs::create_directories(state);
  fs::create_directories(ca);
  write_check_wrappers(live, plugins);
  make_ca(ca, "ca");
  REQUIRE(live.run("check_ib_topology",
                   {"--write-baseline", state + "/baseline.cache", "--state-dir", state})
              .exit_code == 0);

  // The daemons' API addresses: the master's (or the only daemon's) first. With passive switch
  // services and zones, each satellite's sweep submits to "https://" + NodeName + ":5665", as
  // generated: the satellites are named by their own loopback addresses and listen on 5665.
  const std::string satellite_prefix = mode.passive ? loopback_prefix() : "ib-satellite-";
  std::vector<std::pair<std::string, int>> addresses{{"127.0.0.1", free_loopback_port()}};
  if (mode.zones)
    for (int k = 1; k <= kZones; ++k) {
      int port = free_loopback_port();
      while (port == addresses[0].second) port = free_loopback_port();
      addresses.emplace_back(mode.passive ? satellite_prefix + std::to_string(k) : "127.0.0.1",
                             mode.passive ? 5665 : port);
    }
  const std::string url = "https://127.0.0.1:" + std::to_string(addresses[0].second);

  std::vector<std::string> args{"--format",
                                "icinga2",
                                "-o",
                                objects,
                                "--state-dir",
                                state,
                                "--plugin-dir",
                                plugins.string(),
                                "--check-interval",
                                std::to_string(kInterval)};
  if (mode.passive) {
    make_client_certificate(ca, work.path(), "ibpm-sweep");
    if (!mode.zones) args.insert(args.end(), {"--icinga2-api", url});
    for (const std::string& more :
         {std::string("--node-services"), std::string("passive"), std::string("--icinga2-ca"),
          (ca / "ca.crt").string(), std::string("--icinga2-user"), std::string("ibpm-cert"),
          std::string("--icinga2-api-user-cn"), std::string("ibpm-sweep"),
          std::string("--icinga2-cert"), work / "ibpm-sweep.crt", std::string("--icinga2-key"),
          work / "ibpm-sweep.key"})
      args.push_back(more);
  }
  if (mode.zones) {
    args.insert(args.end(),
                {"--zones", std::to_string(kZones), "--satellite-prefix", satellite_prefix});
    for (int k = 1; k <= kZones; ++k)
      args.insert(args.end(), {"--endpoint-address", satellite_prefix + std::to_string(k) + "=" +
                                                         addresses[k].first + ":" +
                                                         std::to_string(addresses[k].second)});
  }
  const ProcessRun generated = live.run("ibpm-nagios-config", args);
  INFO(generated.out << generated.err);
  REQUIRE(generated.exit_code == 0);

  // Each daemon's certificate from the one CA, as `icinga2 pki` or the node wizard gives them.
  const auto node_dir = [&](const IcingaNode& node) {
    const fs::path dir = work.path() / "icinga" / node.name;
    fs::create_directories(dir / "data/certs");
    fs::copy_file(ca / "ca.crt", dir / "data/certs/ca.crt");
    make_server_certificate(ca, dir / "data/certs", node.name, node.host);
    return dir;
  };
  // ibsim serves about 10 clients at once: at most 5 checks run at a time, over all daemons.
  std::list<IcingaDaemon> daemons;
  if (!mode.zones) {
    IcingaNode node;
    node.port = addresses[0].second;
    node.checker = true;
    node.max_concurrent_checks = 5;
    node.objects = "include_recursive \"" + objects + "\"\n";
    daemons.emplace_back(node_dir(node), node);
  } else {
    // The master as docs/operators.md sets it up: its zone "master", the generated zones, and
    // the zones' folders through ibpm-master.conf; each satellite its zone, the master's
    // endpoint, the same zones file and its configuration from the master (accept_config), its
    // own state folder (IbpmStateDir) as on a host of its own.
    const std::string zones_file = "include \"" + objects + "/ibpm-zones.conf\"\n";
    IcingaNode master;
    master.name = "master";
    master.port = addresses[0].second;
    master.checker = true;
    master.max_concurrent_checks = 1;
    master.zones =
        "object Endpoint \"master\" { }\n"
        "object Zone \"master\" { endpoints = [ \"master\" ] }\n" +
        zones_file;
    master.objects = "include \"" + objects + "/ibpm-master.conf\"\n";
    daemons.emplace_back(node_dir(master), master);
    for (int k = 1; k <= kZones; ++k) {
      IcingaNode satellite;
      satellite.name = satellite_prefix + std::to_string(k);
      satellite.zone = "ib-zone-" + std::to_string(k);
      satellite.host = addresses[k].first;
      satellite.port = addresses[k].second;
      satellite.checker = true;
      satellite.max_concurrent_checks = 2;
      satellite.accept_config = true;
      satellite.zones = "object Endpoint \"master\" {\n  host = \"127.0.0.1\"\n  port = \"" +
                        std::to_string(addresses[0].second) +
                        "\"\n}\n"
                        "object Zone \"master\" { endpoints = [ \"master\" ] }\n" +
                        zones_file;
      const fs::path dir = node_dir(satellite);
      satellite.extra = "const IbpmStateDir = \"" + (dir / "ibpm").string() + "\"\n";
      daemons.emplace_back(dir, satellite);
    }
  }
  const IcingaDaemon& icinga = daemons.front();
  const auto logs = [&] {
    std::string text;
    for (const IcingaDaemon& daemon : daemons)
      for (const char* level : {"warning", "critical"})
        for (const std::string& line : icinga_log_lines(daemon.log(), level)) text += line + "\n";
    return text;
  };

  const auto wait_for = [&](const std::function<bool()>& done, int seconds) {
    const auto deadline = Clock::now() + std::chrono::seconds(seconds);
    while (!done()) {
      if (Clock::now() > deadline) return false;
      std::this_thread::sleep_for(std::chrono::milliseconds(500));
    }
    return true;
  };
  const auto switches_say = [&](const std::map<std::string, int>& wanted) {
    const auto services = icinga.node_services();
    for (const auto& [host, attrs] : services) {
      if (attrs.at("last_check_result").is_null()) return false;
      const std::string output = attrs.at("last_check_result").at("output");
      const int expected = wanted.contains(host) ? wanted.at(host) : 0;
      if (attrs.at("state") != expected || output.rfind("IB NODE ", 0) != 0) return false;
      // Active: HARD after its retries; passive: HARD from the first result.
      if (expected != 0 && attrs.at("state_type") != 1) return false;
    }
    return services.size() == 9;
  };
  // Satellites connect, take their zones from the master and restart with them first.
  const int start_up = mode.zones ? 60 : 0;
  const auto started = Clock::now();

  // Every switch's ib-node OK from the checks Icinga 2 ran, within a few intervals.
  {
    const bool ok = wait_for([&] { return switches_say({}); }, start_up + 8 * kInterval);
    INFO(describe(icinga.node_services()) << logs());
    REQUIRE(ok);
  }
  // Every other host and service has been checked (Icinga 2 spreads the first checks over their
  // interval: routes are read every 12 intervals, the first time up to 48 s after the start), and
  // each is OK: a freshness UNKNOWN would say the results stopped coming, a missing option would be
  // the check's UNKNOWN.
  std::string unchecked;
  const bool all_checked = wait_for(
      [&] {
        unchecked.clear();
        for (const char* type : {"hosts", "services"})
          for (const auto& [name, attrs] : icinga.objects(type))
            if (attrs.at("last_check_result").is_null()) unchecked += " " + name;
        return unchecked.empty();
      },
      start_up + 20 * kInterval);
  INFO("never checked:" << unchecked << "\n" << describe(icinga.objects("services")) << logs());
  REQUIRE(all_checked);
  std::cout << "every host and service checked "
            << std::chrono::duration<double>(Clock::now() - started).count() << " s after start\n";
  const auto hosts = icinga.objects("hosts");
  const auto services = icinga.objects("services");
  {
    std::map<int, int> states;
    for (const auto& [name, attrs] : services) ++states[attrs.at("state").get<int>()];
    std::cout << hosts.size() << " hosts, " << services.size() << " services: " << states[0]
              << " OK, " << states[1] << " WARNING, " << states[2] << " CRITICAL, " << states[3]
              << " UNKNOWN\n";
  }
  {
    INFO(describe(hosts) << describe(services));
    for (const auto& [name, attrs] : hosts) {
      INFO(name);
      CHECK(attrs.at("state") == 0);
    }
    for (const auto& [name, attrs] : services) {
      INFO(name);
      // The fabric is healthy: every service OK but ib-sm, as no subnet manager runs here
      // (OpenSM swept once and left): its true state (its own tests run two OpenSM daemons).
      if (!name.ends_with("!ib-sm")) CHECK(attrs.at("state") == 0);
      const std::string output = attrs.at("last_check_result").at("output");
      CHECK(output.find("reshness") == std::string::npos);
      CHECK(output.find("no result from the fabric sweep") == std::string::npos);
    }
    if (mode.passive) {
      // The sweeps (one, or one per satellite to its own API) delivered every switch's result.
      int submitted = 0;
      for (const auto& [name, attrs] : services) {
        if (!name.ends_with("!ib-fabric") && !name.ends_with("!ib-fabric-shard")) continue;
        const std::string output = attrs.at("last_check_result").at("output");
        INFO(name << ": " << output);
        static const std::regex line(R"(\\_\[OK\] (\d+) switch results submitted to Icinga 2)");
        std::smatch found;
        REQUIRE(std::regex_search(output, found, line));
        CHECK(output.find("not delivered") == std::string::npos);
        submitted += std::stoi(found[1].str());
      }
      CHECK(submitted == 9);
    }
    CHECK(services.contains("ib-fabric!ib-topology"));
    CHECK(services.contains("ib-fabric!ib-routes"));
    if (mode.zones) {
      // Each object's checks ran on its zone's endpoint: the shards and the switches on their
      // satellites, the rest on the master; each zone connected. (A passive result names the
      // host of the sweep that submitted it, here the test's.)
      for (const auto* objects_of_type : {&hosts, &services})
        for (const auto& [name, attrs] : *objects_of_type) {
          INFO(name);
          if (mode.passive && name.ends_with("!ib-node")) continue;
          CHECK(attrs.at("last_check_result").at("check_source") ==
                endpoint_of_zone(satellite_prefix, attrs.at("zone")));
        }
      for (int k = 1; k <= kZones; ++k) {
        const std::string shard = "ib-fabric-shard-" + std::to_string(k) + "!ib-fabric-shard";
        REQUIRE(services.contains(shard));
        CHECK(services.at(shard).at("zone") == "ib-zone-" + std::to_string(k));
        CHECK(services.at(shard).at("state") == 0);
        CHECK(services.at("ib-fabric!cluster-ib-zone-" + std::to_string(k)).at("state") == 0);
      }
      // Each satellite keeps its own samples (IbpmStateDir, read by the synced settings).
      for (int k = 1; k <= kZones; ++k) {
        const fs::path own =
            work.path() / "icinga" / (satellite_prefix + std::to_string(k)) / "ibpm";
        bool has_rrd = false;
        if (fs::exists(own))
          for (const auto& entry : fs::recursive_directory_iterator(own))
            has_rrd = has_rrd || entry.path().extension() == ".rrd";
        CHECK(has_rrd);
      }
      std::size_t satellite_switches = 0;
      for (const auto& [host, attrs] : icinga.node_services())
        if (std::string(attrs.at("zone")).starts_with("ib-zone-")) ++satellite_switches;
      CHECK(satellite_switches == 9);
    } else {
      CHECK(services.at("ib-fabric!ib-fabric").at("state") == 0);
    }
  }

  // A cable in error: its symbol errors go on rising (a single burst is counted by whichever of
  // the sweep and the switch's own check reads it first: they share the samples). That leaf's
  // ib-node CRITICAL naming the cable and HARD (passive: from its first result, a whole interval's
  // judgement; active: after its retries), the others OK, and the sweep that polls the port
  // CRITICAL.
  const std::string leaf_zone = icinga.node_services().at("leaf02").at("zone");
  const std::string sweep = mode.zones
                                ? "ib-fabric-shard-" + leaf_zone.substr(8) + "!ib-fabric-shard"
                                : "ib-fabric!ib-fabric";
  ConsoleUndo clear_errors(live, "PerformanceSet \"leaf02\"[3] PortCounters.SymbolErrorCounter=0");
  const auto fault = Clock::now();
  unsigned errors = 0;
  double to_hard = 0;
  bool soft_seen = false;  // leaf02 CRITICAL but SOFT
  const bool critical = wait_for(
      [&] {
        errors += 200;  // (the counter is 16 bits: at most 24,000 in the minute)
        live.console("PerformanceSet \"leaf02\"[3] PortCounters.SymbolErrorCounter=" +
                     std::to_string(errors));
        const nlohmann::json now = icinga.node_services().at("leaf02");
        soft_seen = soft_seen || (now.at("state") == 2 && now.at("state_type") == 0);
        if (to_hard == 0 && switches_say({{"leaf02", 2}}))
          to_hard = std::chrono::duration<double>(Clock::now() - fault).count();
        return to_hard > 0 && icinga.objects("services").at(sweep).at("state") == 2;
      },
      15 * kInterval);
  INFO(describe(icinga.objects("services")));
  REQUIRE(critical);
  const nlohmann::json leaf = icinga.node_services().at("leaf02");
  const std::string output = leaf.at("last_check_result").at("output");
  CHECK(output.rfind("IB NODE CRITICAL - leaf02: ", 0) == 0);
  CHECK(output.find("leaf02[3] <-> " + live.peer_name("leaf02", 3)) != std::string::npos);
  CHECK(soft_seen == !mode.passive);
  if (mode.zones && !mode.passive)
    CHECK(leaf.at("last_check_result").at("check_source") ==
          endpoint_of_zone(satellite_prefix, leaf_zone));
  std::cout << "leaf02's ib-node CRITICAL and HARD " << to_hard << " s after the fault (check "
            << "interval " << kInterval << " s)\n";
}

}  // namespace icinga_schedule_test

using icinga_schedule_test::Mode;
using icinga_schedule_test::run_on_own_schedule;

TEST_CASE("Icinga 2 runs the generated passive configuration whole on its own schedule") {
  Mode mode;
  mode.passive = true;
  run_on_own_schedule(mode);
}

TEST_CASE("Icinga 2 runs the generated active configuration whole on its own schedule") {
  run_on_own_schedule(Mode());
}

TEST_CASE("Icinga 2 runs the generated zones whole on its own schedule, master and satellites") {
  Mode mode;
  mode.zones = true;
  run_on_own_schedule(mode);
}

TEST_CASE(
    "Icinga 2 runs the generated passive zones whole on its own schedule, each satellite's API") {
  Mode mode;
  mode.passive = true;
  mode.zones = true;
  run_on_own_schedule(mode);
}
