// SPDX-License-Identifier: MIT
// A running Icinga 2 daemon for the live tests: its own folders, its API over TLS on the loopback
// (certificates made for the test with openssl), a reading ApiUser, and the objects and states it
// holds read back through that API. One daemon stands alone (its own endpoint and zone, as the
// stock zones.conf makes them) or is one node of a cluster (the test writes its zones).
#pragma once

#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <string>

#include "support/process.hpp"

namespace ibpm::nagios_test {

// DIR/NAME.crt and DIR/NAME.key: a CA (RSA 2048: quick to make).
void make_ca(const std::filesystem::path& dir, const std::string& name);

// DIR/CN.crt and DIR/CN.key for a daemon named CN, signed by CA_DIR/ca.crt (and ca.key), valid
// for CN, localhost and the address IP (its endpoint name for Icinga 2, its address for clients).
void make_server_certificate(const std::filesystem::path& ca_dir, const std::filesystem::path& dir,
                             const std::string& cn, const std::string& ip = "127.0.0.1");

// DIR/CN.crt and DIR/CN.key (mode 0600): a client certificate signed by CA_DIR/ca.crt.
void make_client_certificate(const std::filesystem::path& ca_dir, const std::filesystem::path& dir,
                             const std::string& cn);

// What a daemon runs and with whom.
struct IcingaNode {
  std::string name = "localhost";  // NodeName, its certificate's CN
  std::string host = "127.0.0.1";  // its API's address (a loopback one)
  int port = 0;                    // and port
  bool checker = false;            // runs checks itself (else every state is a submitted one)
  int max_concurrent_checks = 0;   // MaxConcurrentChecks (0: Icinga 2's own)
  bool accept_config = false;      // a satellite: its parent syncs its zones to it
  std::string zone;                // ZoneName (empty: NodeName)
  // Endpoint and Zone objects (empty: the node's own endpoint in the zone ZoneName).
  std::string zones;
  std::string objects;  // after <itl> and <plugins>: the generated configuration's includes
  std::string extra;    // more objects (ApiUsers, constants)
};

class IcingaDaemon {
 public:
  // Starts the daemon in DIR (data, run, log, cache and spool folders there) and waits until its
  // API answers. Its CA and certificate are made in DIR/data/certs unless NAME.crt is there.
  IcingaDaemon(const std::filesystem::path& dir, const IcingaNode& node);

  std::string url() const { return "https://" + host_ + ":" + std::to_string(port_); }
  std::string ca() const { return (dir_ / "data/certs/ca.crt").string(); }

  // GET as the reading user.
  ibpm::test::ProcessRun get(const std::string& path) const;

  // "HOST!SERVICE" (or "HOST" for hosts) -> attributes: state, state_type, last_check_result,
  // zone and, for services, host_name.
  std::map<std::string, nlohmann::json> objects(const std::string& type) const;

  // host -> attributes of every ib-node service.
  std::map<std::string, nlohmann::json> node_services() const;

  std::string log() const;

 private:
  std::filesystem::path dir_;
  std::string host_;
  int port_;
  ibpm::test::BackgroundProcess process_;
};

}  // namespace ibpm::nagios_test
