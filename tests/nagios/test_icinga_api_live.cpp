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
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

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

namespace {

std::string private_file(const fs::path& path, const std::string& text, mode_t mode = 0600) {
  write_text(path, text);
  REQUIRE(::chmod(path.c_str(), mode) == 0);
  return path.string();
}

// The README's least-privilege user: results for the ib-node services only (by password; the
// generator writes the one by certificate, "ibpm-cert"), a user without the permission, and one
// allowed the leaves' services only.
constexpr const char* kApiUsers =
    "object ApiUser \"ibpm\" {\n  password = \"ibpm-password\"\n"
    "  permissions = [ {\n    permission = \"actions/process-check-result\"\n"
    "    filter = {{ service.name == \"ib-node\" }}\n  } ]\n}\n"
    "object ApiUser \"viewer\" {\n  password = \"viewer-password\"\n"
    "  permissions = [ \"objects/query/Service\" ]\n}\n"
    "object ApiUser \"leaves\" {\n  password = \"leaves-password\"\n"
    "  permissions = [ {\n    permission = \"actions/process-check-result\"\n"
    "    filter = {{ match(\"leaf*\", service.host_name) }}\n  } ]\n}\n";

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

  IcingaNode node;
  node.port = port;
  node.extra = kApiUsers;
  node.objects = "include_recursive \"" + objects + "\"\n";
  IcingaDaemon icinga(work.path() / "icinga", node);
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
  make_ca(work.path() / "other", "other-ca");
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
