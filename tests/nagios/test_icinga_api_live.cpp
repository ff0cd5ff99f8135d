// SPDX-License-Identifier: MIT
// Icinga 2 takes every switch's state from the sweep's passive results through its REST API:
// the generated passive configuration in a real daemon whose API listens over TLS on the
// loopback (a CA and a server certificate made for the test), one sweep submits as an ApiUser
// whose only permission is actions/process-check-result on the ib-node services, and each
// switch's state read back through the API follows the fabric (symbol errors on one leaf port:
// that leaf CRITICAL, the rest OK). A wrong CA, a wrong password, a user without the permission
// and a password file others may read each leave the sweep's own result standing with one line
// saying how many results were not delivered and why (an OK fabric with the API down stays OK); a
// client certificate authenticates as well as a password (its key private too) for the ApiUser the
// generator wrote; a refusal of some results (a user allowed only some services) is counted and the
// first named.
#include <sys/stat.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <filesystem>
#include <functional>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <vector>

#include "check_wrappers.hpp"
#include "daemon_support.hpp"
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

namespace {

// A CA and a certificate it signs for localhost and 127.0.0.1 (RSA 2048: quick to make).
void make_certificates(const fs::path& dir, const std::string& ca_name, bool server) {
  const std::string ca = (dir / (ca_name + ".crt")).string();
  const std::string ca_key = (dir / (ca_name + ".key")).string();
  ProcessRun run =
      run_process({"openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", ca_key,
                   "-out", ca, "-days", "2", "-subj", "/CN=" + ca_name},
                  {{}, Stderr::merged});
  REQUIRE(run.exit_code == 0);
  if (!server) return;
  const std::string key = (dir / "localhost.key").string();
  const std::string csr = (dir / "localhost.csr").string();
  const std::string extensions = (dir / "san.ext").string();
  write_text(extensions, "subjectAltName=DNS:localhost,IP:127.0.0.1\n");
  run = run_process({"openssl", "req", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", csr,
                     "-subj", "/CN=localhost"},
                    {{}, Stderr::merged});
  REQUIRE(run.exit_code == 0);
  run = run_process(
      {"openssl", "x509", "-req", "-in", csr, "-CA", ca, "-CAkey", ca_key, "-CAcreateserial",
       "-out", (dir / "localhost.crt").string(), "-days", "2", "-extfile", extensions},
      {{}, Stderr::merged});
  REQUIRE(run.exit_code == 0);
}

// A client certificate with CN `cn`, signed by the CA of `ca_dir` (ca.crt, ca.key).
void make_client_certificate(const fs::path& ca_dir, const fs::path& dir, const std::string& cn) {
  const std::string key = (dir / (cn + ".key")).string();
  const std::string csr = (dir / (cn + ".csr")).string();
  ProcessRun run = run_process({"openssl", "req", "-newkey", "rsa:2048", "-nodes", "-keyout", key,
                                "-out", csr, "-subj", "/CN=" + cn},
                               {{}, Stderr::merged});
  REQUIRE(run.exit_code == 0);
  run = run_process({"openssl", "x509", "-req", "-in", csr, "-CA", (ca_dir / "ca.crt").string(),
                     "-CAkey", (ca_dir / "ca.key").string(), "-CAcreateserial", "-out",
                     (dir / (cn + ".crt")).string(), "-days", "2"},
                    {{}, Stderr::merged});
  REQUIRE(run.exit_code == 0);
  REQUIRE(::chmod(key.c_str(), 0600) == 0);
}

std::string private_file(const fs::path& path, const std::string& text, mode_t mode = 0600) {
  write_text(path, text);
  REQUIRE(::chmod(path.c_str(), mode) == 0);
  return path.string();
}

// Whether the daemon runs checks itself.
enum class Checker { off, on };

// One Icinga 2 daemon with its API on the loopback, the generated objects included. Without its
// checker nothing runs a check: every state is a submitted one. Its CA and server certificate
// are made in DIR/data/certs unless they are there already.
class IcingaApi {
 public:
  IcingaApi(const fs::path& dir, const std::string& objects, int port,
            Checker checker = Checker::off)
      : dir_(dir), port_(port), process_(start(dir, objects, port, checker), dir / "icinga2.out") {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    while (get("/v1/status/IcingaApplication").exit_code != 0) {
      if (!process_.running() || std::chrono::steady_clock::now() > deadline)
        throw std::runtime_error("icinga2 did not start:\n" + read_text(dir / "icinga2.out"));
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
  }

  std::string url() const { return "https://127.0.0.1:" + std::to_string(port_); }
  std::string ca() const { return (dir_ / "data/certs/ca.crt").string(); }

  // GET as the reading user.
  ProcessRun get(const std::string& path) const {
    return run_process({"curl", "-sf", "--cacert", ca(), "-u", "reader:reader-password", "-H",
                        "Accept: application/json", url() + path});
  }

  // "HOST!SERVICE" (or "HOST" for hosts) -> attributes: state, last_check_result, host_name.
  std::map<std::string, nlohmann::json> objects(const std::string& type) const {
    const ProcessRun run =
        get("/v1/objects/" + type + "?attrs=state&attrs=state_type&attrs=last_check_result" +
            (type == "services" ? "&attrs=host_name" : ""));
    INFO(run.out.substr(0, 2000) << run.err);
    REQUIRE(run.exit_code == 0);
    std::map<std::string, nlohmann::json> found;
    const nlohmann::json answer = nlohmann::json::parse(run.out);  // outlives the loop
    for (const auto& object : answer.at("results"))
      found[object.at("name").get<std::string>()] = object.at("attrs");
    return found;
  }

  // host -> (state, last check result) of every ib-node service.
  std::map<std::string, nlohmann::json> node_services() const {
    std::map<std::string, nlohmann::json> services;
    for (const auto& [name, attrs] : objects("services"))
      if (name.ends_with("!ib-node")) services[attrs.at("host_name").get<std::string>()] = attrs;
    if (services.empty()) FAIL("no ib-node services");
    return services;
  }

  std::string log() const { return read_text(dir_ / "icinga2.out"); }

 private:
  static std::vector<std::string> start(const fs::path& dir, const std::string& objects, int port,
                                        Checker checker) {
    for (const char* sub : {"run/icinga2", "data/certs", "log", "cache", "spool"})
      fs::create_directories(dir / sub);
    if (!fs::exists(dir / "data/certs/ca.crt")) make_certificates(dir / "data/certs", "ca", true);
    const std::string conf = (dir / "icinga2.conf").string();
    write_text(conf,
               "const PluginDir = \"/usr/lib/nagios/plugins\"\n"
               "const NodeName = \"localhost\"\n"
               "const ZoneName = NodeName\n"
               "object Endpoint NodeName { }\n"
               "object Zone ZoneName { endpoints = [ NodeName ] }\n"
               "object ApiListener \"api\" {\n  bind_host = \"127.0.0.1\"\n  bind_port = " +
                   std::to_string(port) +
                   "\n}\n"
                   "object ApiUser \"reader\" {\n  password = \"reader-password\"\n"
                   "  permissions = [ \"objects/query/*\", \"status/query\" ]\n}\n"
                   // The README's least-privilege user: results for the ib-node services only
                   // (by password; the generator writes the one by certificate, "ibpm-cert").
                   "object ApiUser \"ibpm\" {\n  password = \"ibpm-password\"\n"
                   "  permissions = [ {\n    permission = \"actions/process-check-result\"\n"
                   "    filter = {{ service.name == \"ib-node\" }}\n  } ]\n}\n"
                   "object ApiUser \"viewer\" {\n  password = \"viewer-password\"\n"
                   "  permissions = [ \"objects/query/Service\" ]\n}\n"
                   "object ApiUser \"leaves\" {\n  password = \"leaves-password\"\n"
                   "  permissions = [ {\n    permission = \"actions/process-check-result\"\n"
                   "    filter = {{ match(\"leaf*\", service.host_name) }}\n  } ]\n}\n" +
                   (checker == Checker::on ? "object CheckerComponent \"checker\" { }\n" : "") +
                   "include <itl>\n"
                   "include <plugins>\n"
                   "include_recursive \"" +
                   objects + "\"\n");
    const std::string d = dir.string();
    return {"/usr/bin/env",
            "ICINGA2_USER=" + current_user(),
            "ICINGA2_GROUP=" + current_group(),
            find_program("icinga2"),
            "daemon",
            "-c",
            conf,
            "-D",
            "Configuration.DataDir=" + d + "/data",
            "-D",
            "Configuration.RunDir=" + d + "/run",
            "-D",
            "Configuration.LogDir=" + d + "/log",
            "-D",
            "Configuration.CacheDir=" + d + "/cache",
            "-D",
            "Configuration.SpoolDir=" + d + "/spool"};
  }

  fs::path dir_;
  int port_;
  BackgroundProcess process_;
};

// The one line of the long output that mentions Icinga 2.
std::string icinga_line(const ProcessRun& run) {
  std::string found;
  std::size_t count = 0;
  for (const std::string& line : run.lines())
    if (line.find("Icinga 2") != std::string::npos) {
      found = line;
      ++count;
    }
  CHECK(count == 1);
  return found;
}

}  // namespace

TEST_CASE("Icinga 2 takes every switch's state from the sweep through its REST API over TLS") {
  IBPM_REQUIRE_SIMULATOR();
  if (find_program("icinga2").empty() || find_program("openssl").empty() ||
      find_program("curl").empty())
    IBPM_SKIP("icinga2, openssl or curl not installed (apt-get install icinga2-bin openssl curl)");
  LiveFabric live = LiveFabric::start();
  TempDir work("icinga-api");
  const std::string state = work / "state";
  const std::string objects = work / "ibpm";
  fs::create_directories(state);
  const int port = free_loopback_port();
  const std::string url = "https://127.0.0.1:" + std::to_string(port);
  const std::string password = private_file(work.path() / "ibpm.password", "ibpm-password\n");

  const ProcessRun generated =
      live.run("ibpm-nagios-config", {"--format",
                                      "icinga2",
                                      "-o",
                                      objects,
                                      "--state-dir",
                                      state,
                                      "--no-baseline",
                                      "--node-services",
                                      "passive",
                                      "--icinga2-api",
                                      url,
                                      "--icinga2-ca",
                                      (work.path() / "icinga/data/certs/ca.crt").string(),
                                      "--icinga2-user",
                                      "ibpm-cert",
                                      "--icinga2-api-user-cn",
                                      "ibpm-sweep",
                                      "--icinga2-cert",
                                      work / "ibpm-sweep.crt",
                                      "--icinga2-key",
                                      work / "ibpm-sweep.key"});
  INFO(generated.out << generated.err);
  REQUIRE(generated.exit_code == 0);
  const std::string settings = read_text(fs::path(objects) / "ibpm-settings.conf");
  CHECK(settings.find("vars.ib_fabric_icinga2_api = \"" + url + "\"") != std::string::npos);
  CHECK(settings.find("vars.ib_fabric_icinga2_cert = \"" + (work / "ibpm-sweep.crt") + "\"") !=
        std::string::npos);
  CHECK(fs::exists(fs::path(objects) / "ibpm-api-user.conf"));  // the ApiUser "ibpm-cert"

  IcingaApi icinga(work.path() / "icinga", objects, port);
  const auto sweep = [&](const std::vector<std::string>& api) {
    std::vector<std::string> args{"--state-dir", state, "--no-syslog", "-t", "20"};
    args.insert(args.end(), api.begin(), api.end());
    return live.run("check_ib_fabric", args);
  };
  const std::vector<std::string> submit{
      "--icinga2-api",           url,     "--icinga2-ca", icinga.ca(), "--icinga2-user", "ibpm",
      "--icinga2-password-file", password};

  const auto with = [&](const std::string& option, const std::string& value) {
    std::vector<std::string> api = submit;
    for (std::size_t i = 0; i + 1 < api.size(); ++i)
      if (api[i] == option) api[i + 1] = value;
    return api;
  };

  // The first sweep: every switch OK (collecting its baseline), submitted.
  {
    const ProcessRun run = sweep(submit);
    INFO(run.out << run.err);
    CHECK(run.exit_code == 0);
    CHECK(icinga_line(run) == "\\_[OK] 9 switch results submitted to Icinga 2");
    CHECK(run.first_line().find(" undelivered_results=0;;;0") != std::string::npos);
    const auto services = icinga.node_services();
    INFO(read_text(work.path() / "icinga/icinga2.out"));
    REQUIRE(services.size() == 9);
    for (const auto& [host, attrs] : services) {
      INFO(host << ": " << attrs.dump());
      CHECK(attrs.at("state") == 0);
      CHECK(attrs.at("last_check_result")
                .at("output")
                .get<std::string>()
                .rfind("IB NODE OK - " + host, 0) == 0);
    }
  }

  // The API not there at all, on a fabric that is OK: the sweep stays OK (exit 0), its long
  // output says how many results were not delivered and why, its perfdata counts them.
  {
    const ProcessRun run =
        sweep(with("--icinga2-api", "https://127.0.0.1:" + std::to_string(free_loopback_port())));
    INFO(run.out << run.err);
    CHECK(run.exit_code == 0);
    CHECK(run.first_line().rfind("IB FABRIC OK - ", 0) == 0);
    CHECK(run.first_line().find(" undelivered_results=9;;;0") != std::string::npos);
    CHECK(icinga_line(run).rfind(
              "\\_[UNKNOWN] 9 switch results not delivered to Icinga 2: https://127.0.0.1:", 0) ==
          0);
  }

  // Symbol errors on one leaf port: that leaf CRITICAL naming the cable, the rest OK.
  const std::string cable = "leaf02[3] <-> " + live.peer_name("leaf02", 3);
  ConsoleUndo clear_errors(live, "PerformanceSet \"leaf02\"[3] PortCounters.SymbolErrorCounter=0");
  live.console("PerformanceSet \"leaf02\"[3] PortCounters.SymbolErrorCounter=5000");
  {
    const ProcessRun run = sweep(submit);
    INFO(run.out << run.err);
    CHECK(run.exit_code == 2);
    CHECK(icinga_line(run) == "\\_[OK] 9 switch results submitted to Icinga 2");
    const auto services = icinga.node_services();
    for (const auto& [host, attrs] : services) {
      INFO(host << ": " << attrs.dump());
      CHECK(attrs.at("state") == (host == "leaf02" ? 2 : 0));
    }
    const nlohmann::json& leaf = services.at("leaf02").at("last_check_result");
    const std::string output = leaf.at("output");
    CHECK(output.rfind("IB NODE CRITICAL - leaf02: ", 0) == 0);
    CHECK(output.find(cable) != std::string::npos);
    CHECK(output.find(" | ") == std::string::npos);  // the perfdata apart, as an array
    REQUIRE(leaf.at("performance_data").is_array());
    CHECK(leaf.at("performance_data").size() > 1);
    char host[256] = {};
    REQUIRE(::gethostname(host, sizeof host - 1) == 0);
    CHECK(leaf.at("check_source") == std::string(host));  // the sweep's host, not the API's
  }

  // Submissions that fail: the sweep's own result stands (its status line and state are the
  // ports'), with one line saying what failed; nothing is delivered.
  const auto failed = [&](const std::vector<std::string>& api, const std::string& why) {
    const ProcessRun run = sweep(api);
    INFO(run.out << run.err);
    CHECK(run.first_line().rfind("IB FABRIC ", 0) == 0);
    CHECK(run.first_line().rfind("IB FABRIC UNKNOWN", 0) != 0);
    CHECK(run.first_line().find("ports") != std::string::npos);
    CHECK(run.first_line().find(" undelivered_results=9;;;0") != std::string::npos);
    CHECK(run.exit_code != 3);
    const std::string line = icinga_line(run);
    CHECK(line.rfind("\\_[UNKNOWN] ", 0) == 0);
    CHECK(line.find(why) != std::string::npos);
    return line;
  };
  fs::create_directories(work.path() / "other");
  make_certificates(work.path() / "other", "other-ca", false);
  failed(with("--icinga2-ca", (work.path() / "other/other-ca.crt").string()),
         "9 switch results not delivered to Icinga 2: " + url + ": SSL certificate problem");
  failed(with("--icinga2-password-file",
              private_file(work.path() / "wrong.password", "not-the-password\n")),
         "9 switch results not delivered to Icinga 2: HTTP 401 (the user or password is wrong)");
  {
    std::vector<std::string> viewer = with("--icinga2-user", "viewer");
    viewer = [&] {
      for (std::size_t i = 0; i + 1 < viewer.size(); ++i)
        if (viewer[i] == "--icinga2-password-file")
          viewer[i + 1] = private_file(work.path() / "viewer.password", "viewer-password\n");
      return viewer;
    }();
    failed(viewer,
           "9 switch results not delivered to Icinga 2: HTTP 404 (the ApiUser lacks the "
           "permission actions/process-check-result)");
  }
  const std::string shared = private_file(work.path() / "shared.password", "ibpm-password\n", 0644);
  const std::string line =
      failed(with("--icinga2-password-file", shared),
             "9 switch results not delivered to Icinga 2: " + shared +
                 ": group or others may read it (mode 0644): chmod 600 " + shared);
  CHECK(line.find("ibpm-password\n") == std::string::npos);

  // A client certificate instead of the password; its key must be private too.
  {
    make_client_certificate(work.path() / "icinga/data/certs", work.path(), "ibpm-sweep");
    const std::vector<std::string> by_certificate{"--icinga2-api",  url,
                                                  "--icinga2-ca",   icinga.ca(),
                                                  "--icinga2-cert", work / "ibpm-sweep.crt",
                                                  "--icinga2-key",  work / "ibpm-sweep.key"};
    const ProcessRun run = sweep(by_certificate);
    INFO(run.out);
    CHECK(icinga_line(run) == "\\_[OK] 9 switch results submitted to Icinga 2");
    REQUIRE(::chmod((work / "ibpm-sweep.key").c_str(), 0640) == 0);
    failed(by_certificate, "9 switch results not delivered to Icinga 2: " +
                               (work / "ibpm-sweep.key") + ": group or others may read it");
  }

  // A user allowed only the leaves' services: the spines' results refused, counted, the first
  // named; the leaves' delivered.
  {
    std::vector<std::string> leaves = with("--icinga2-user", "leaves");
    for (std::size_t i = 0; i + 1 < leaves.size(); ++i)
      if (leaves[i] == "--icinga2-password-file")
        leaves[i + 1] = private_file(work.path() / "leaves.password", "leaves-password\n");
    const ProcessRun run = sweep(leaves);
    INFO(run.out);
    const std::string refused = icinga_line(run);
    const std::size_t leaf_count = live.tree.switches.front().size();
    CHECK(refused.find(std::to_string(9 - leaf_count) + " of 9 switch results not delivered to "
                                                        "Icinga 2: HTTP 404 for ") !=
          std::string::npos);
    CHECK(refused.find("!ib-node: Access denied to object") != std::string::npos);
  }
}

TEST_CASE("Icinga 2 runs the generated passive configuration whole on its own schedule") {
  // As a site runs it: the configuration as generated (no option handed to a check by the test),
  // Icinga 2's checker runs the fabric sweep every few seconds through the generated
  // CheckCommand, the sweep submits every switch's result through the API over TLS as the
  // generated ApiUser (client certificate), and every host and service reaches a real state.
  IBPM_REQUIRE_SIMULATOR();
  if (find_program("icinga2").empty() || find_program("openssl").empty() ||
      find_program("curl").empty())
    IBPM_SKIP("icinga2, openssl or curl not installed (apt-get install icinga2-bin openssl curl)");
  LiveFabric live = LiveFabric::start();
  TempDir work("icinga-whole");
  const std::string state = work / "state";
  const std::string objects = work / "ibpm";
  const fs::path plugins = work.path() / "plugins";
  const fs::path certs = work.path() / "icinga/data/certs";
  fs::create_directories(state);
  fs::create_directories(certs);
  write_check_wrappers(live, plugins);
  make_certificates(certs, "ca", true);
  make_client_certificate(certs, work.path(), "ibpm-sweep");
  const int port = free_loopback_port();
  const std::string url = "https://127.0.0.1:" + std::to_string(port);
  constexpr int interval = 4;

  const ProcessRun generated = live.run("ibpm-nagios-config", {"--format",
                                                               "icinga2",
                                                               "-o",
                                                               objects,
                                                               "--state-dir",
                                                               state,
                                                               "--no-baseline",
                                                               "--plugin-dir",
                                                               plugins.string(),
                                                               "--check-interval",
                                                               std::to_string(interval),
                                                               "--node-services",
                                                               "passive",
                                                               "--icinga2-api",
                                                               url,
                                                               "--icinga2-ca",
                                                               (certs / "ca.crt").string(),
                                                               "--icinga2-user",
                                                               "ibpm-cert",
                                                               "--icinga2-api-user-cn",
                                                               "ibpm-sweep",
                                                               "--icinga2-cert",
                                                               work / "ibpm-sweep.crt",
                                                               "--icinga2-key",
                                                               work / "ibpm-sweep.key"});
  INFO(generated.out << generated.err);
  REQUIRE(generated.exit_code == 0);

  IcingaApi icinga(work.path() / "icinga", objects, port, Checker::on);
  const auto switches_say = [&](const std::map<std::string, int>& wanted) {
    const auto services = icinga.node_services();
    for (const auto& [host, attrs] : services) {
      if (attrs.at("last_check_result").is_null()) return false;
      const std::string output = attrs.at("last_check_result").at("output");
      const int expected = wanted.contains(host) ? wanted.at(host) : 0;
      if (attrs.at("state") != expected || output.rfind("IB NODE ", 0) != 0) return false;
    }
    return services.size() == 9;
  };
  // Icinga 2 spreads the first checks over their interval: routes are read every 12 intervals.
  const auto wait_for = [&](const std::function<bool()>& done, int intervals = 8) {
    const auto deadline =
        std::chrono::steady_clock::now() + std::chrono::seconds(intervals * interval);
    while (!done()) {
      if (std::chrono::steady_clock::now() > deadline) return false;
      std::this_thread::sleep_for(std::chrono::milliseconds(500));
    }
    return true;
  };

  // Every switch's passive service OK from the sweep Icinga 2 ran, within a few intervals.
  {
    const bool ok = wait_for([&] { return switches_say({}); });
    for (const auto& [host, attrs] : icinga.node_services()) INFO(host << ": " << attrs.dump());
    INFO(icinga.log());
    REQUIRE(ok);
  }
  // Every other host and service has been checked, and none is UNKNOWN (a freshness UNKNOWN
  // would say the results stopped coming; a missing option would be the check's UNKNOWN).
  std::string unchecked;
  const bool all_checked = wait_for(
      [&] {
        unchecked.clear();
        for (const char* type : {"hosts", "services"})
          for (const auto& [name, attrs] : icinga.objects(type))
            if (attrs.at("last_check_result").is_null()) unchecked += " " + name;
        return unchecked.empty();
      },
      14);
  INFO("never checked:" << unchecked);
  REQUIRE(all_checked);
  for (const char* type : {"hosts", "services"})
    for (const auto& [name, attrs] : icinga.objects(type)) {
      INFO(name << ": " << attrs.dump());
      // No subnet manager runs here (OpenSM swept once and left), so check_ib_sm cannot read
      // the SMs: its true state (its own tests run two OpenSM daemons).
      if (std::string(type) == "services" && !name.ends_with("!ib-sm"))
        CHECK(attrs.at("state") != 3);
      const std::string output = attrs.at("last_check_result").at("output");
      CHECK(output.find("reshness") == std::string::npos);
    }

  // Symbol errors on one leaf port: that leaf's service CRITICAL naming the cable, from the
  // sweep Icinga 2 runs, the others OK; HARD from that first result (one attempt: a passive
  // result is a whole interval's judgement), so it notifies within an interval and a sweep.
  ConsoleUndo clear_errors(live, "PerformanceSet \"leaf02\"[3] PortCounters.SymbolErrorCounter=0");
  const auto fault = std::chrono::steady_clock::now();
  live.console("PerformanceSet \"leaf02\"[3] PortCounters.SymbolErrorCounter=5000");
  {
    const bool critical = wait_for([&] { return switches_say({{"leaf02", 2}}); });
    const double to_hard =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - fault).count();
    for (const auto& [host, attrs] : icinga.node_services()) INFO(host << ": " << attrs.dump());
    REQUIRE(critical);
    const nlohmann::json leaf = icinga.node_services().at("leaf02");
    const std::string output = leaf.at("last_check_result").at("output");
    CHECK(output.rfind("IB NODE CRITICAL - leaf02: ", 0) == 0);
    CHECK(output.find("leaf02[3] <-> " + live.peer_name("leaf02", 3)) != std::string::npos);
    CHECK(leaf.at("state_type") == 1);
    std::cout << "passive result HARD " << to_hard << " s after the fault (check interval "
              << interval << " s)\n";
  }
}
