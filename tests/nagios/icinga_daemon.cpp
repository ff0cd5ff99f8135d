// SPDX-License-Identifier: MIT

#include "icinga_daemon.hpp"

#include <sys/stat.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <stdexcept>
#include <thread>
#include <vector>

#include "daemon_support.hpp"
#include "support/text_files.hpp"

namespace ibpm::nagios_test {

namespace fs = std::filesystem;
using namespace ibpm::test;

namespace {

void openssl(const std::vector<std::string>& args) {
  std::vector<std::string> argv{"openssl"};
  argv.insert(argv.end(), args.begin(), args.end());
  const ProcessRun run = run_process(argv, {{}, Stderr::merged});
  INFO(run.out);
  REQUIRE(run.exit_code == 0);
}

std::vector<std::string> start(const fs::path& dir, const IcingaNode& node) {
  for (const char* sub : {"run/icinga2", "data/certs", "log", "cache", "spool"})
    fs::create_directories(dir / sub);
  const fs::path certs = dir / "data/certs";
  if (!fs::exists(certs / (node.name + ".crt"))) {
    if (!fs::exists(certs / "ca.crt")) make_ca(certs, "ca");
    make_server_certificate(certs, certs, node.name, node.host);
  }
  const std::string zone = node.zone.empty() ? node.name : node.zone;
  std::string conf =
      "const PluginDir = \"/usr/lib/nagios/plugins\"\n"
      "const NodeName = \"" +
      node.name + "\"\nconst ZoneName = \"" + zone + "\"\n";
  if (node.max_concurrent_checks > 0)
    conf += "const MaxConcurrentChecks = " + std::to_string(node.max_concurrent_checks) + "\n";
  conf += node.zones.empty() ? "object Endpoint NodeName { }\n"
                               "object Zone ZoneName { endpoints = [ NodeName ] }\n"
                             : node.zones;
  conf += "object ApiListener \"api\" {\n  bind_host = \"" + node.host +
          "\"\n  bind_port = " + std::to_string(node.port) + "\n" +
          (node.accept_config ? "  accept_config = true\n  accept_commands = true\n" : "") +
          "}\n"
          "object ApiUser \"reader\" {\n  password = \"reader-password\"\n"
          "  permissions = [ \"objects/query/*\", \"status/query\" ]\n}\n" +
          (node.checker ? "object CheckerComponent \"checker\" { }\n" : "") + node.extra +
          "include <itl>\n"
          "include <plugins>\n" +
          node.objects;
  const std::string path = (dir / "icinga2.conf").string();
  write_text(path, conf);
  const std::string d = dir.string();
  return {"/usr/bin/env",
          "ICINGA2_USER=" + current_user(),
          "ICINGA2_GROUP=" + current_group(),
          find_program("icinga2"),
          "daemon",
          "-c",
          path,
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

}  // namespace

void make_ca(const fs::path& dir, const std::string& name) {
  openssl({"req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout",
           (dir / (name + ".key")).string(), "-out", (dir / (name + ".crt")).string(), "-days", "2",
           "-subj", "/CN=" + name});
}

void make_server_certificate(const fs::path& ca_dir, const fs::path& dir, const std::string& cn,
                             const std::string& ip) {
  const std::string key = (dir / (cn + ".key")).string();
  const std::string csr = (dir / (cn + ".csr")).string();
  const std::string extensions = (dir / (cn + ".ext")).string();
  write_text(extensions, "subjectAltName=DNS:" + cn + ",DNS:localhost,IP:" + ip + "\n");
  openssl(
      {"req", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", csr, "-subj", "/CN=" + cn});
  openssl({"x509", "-req", "-in", csr, "-CA", (ca_dir / "ca.crt").string(), "-CAkey",
           (ca_dir / "ca.key").string(), "-CAcreateserial", "-out", (dir / (cn + ".crt")).string(),
           "-days", "2", "-extfile", extensions});
}

void make_client_certificate(const fs::path& ca_dir, const fs::path& dir, const std::string& cn) {
  const std::string key = (dir / (cn + ".key")).string();
  const std::string csr = (dir / (cn + ".csr")).string();
  openssl(
      {"req", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", csr, "-subj", "/CN=" + cn});
  openssl({"x509", "-req", "-in", csr, "-CA", (ca_dir / "ca.crt").string(), "-CAkey",
           (ca_dir / "ca.key").string(), "-CAcreateserial", "-out", (dir / (cn + ".crt")).string(),
           "-days", "2"});
  REQUIRE(::chmod(key.c_str(), 0600) == 0);
}

IcingaDaemon::IcingaDaemon(const fs::path& dir, const IcingaNode& node)
    : dir_(dir),
      host_(node.host),
      port_(node.port),
      process_(start(dir, node), dir / "icinga2.out") {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (get("/v1/status/IcingaApplication").exit_code != 0) {
    if (!process_.running() || std::chrono::steady_clock::now() > deadline)
      throw std::runtime_error("icinga2 did not start:\n" + log());
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
}

ProcessRun IcingaDaemon::get(const std::string& path) const {
  return run_process({"curl", "-sf", "--cacert", ca(), "-u", "reader:reader-password", "-H",
                      "Accept: application/json", url() + path});
}

std::map<std::string, nlohmann::json> IcingaDaemon::objects(const std::string& type) const {
  const ProcessRun run = get("/v1/objects/" + type +
                             "?attrs=state&attrs=state_type&attrs=last_check_result&attrs=zone" +
                             (type == "services" ? "&attrs=host_name" : ""));
  INFO(run.out.substr(0, 2000) << run.err);
  REQUIRE(run.exit_code == 0);
  std::map<std::string, nlohmann::json> found;
  const nlohmann::json answer = nlohmann::json::parse(run.out);  // outlives the loop
  for (const auto& object : answer.at("results"))
    found[object.at("name").get<std::string>()] = object.at("attrs");
  return found;
}

std::map<std::string, nlohmann::json> IcingaDaemon::node_services() const {
  std::map<std::string, nlohmann::json> services;
  for (const auto& [name, attrs] : objects("services"))
    if (name.ends_with("!ib-node")) services[attrs.at("host_name").get<std::string>()] = attrs;
  if (services.empty()) FAIL("no ib-node services");
  return services;
}

std::string IcingaDaemon::log() const { return read_text(dir_ / "icinga2.out"); }

}  // namespace ibpm::nagios_test
