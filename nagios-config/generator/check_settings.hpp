// SPDX-License-Identifier: MIT
// How the generated configuration runs the checks: where they are and the options every one
// of them gets. These come from the operator (command line), not from the fabric.
#pragma once

#include <map>
#include <string>

namespace ibpm::nagios_config {

struct CheckSettings {
  std::string plugin_dir;       // where check_ib_* are installed
  std::string state_dir;        // --state-dir of every check
  std::string node_name_map;    // --node-name-map, empty: none
  std::string ca;               // -C, empty: the first HCA
  int ca_port = 0;              // -P, 0: the first active port
  std::string rrdcached;        // --rrdcached of the polling checks, empty: none
  std::string thresholds;       // --thresholds of the polling checks, empty: none
  std::string baseline;         // check_ib_topology --baseline, empty: no topology service
  std::string delegation_file;  // check_ib_fabric --delegation (with zones)
  bool nearest = false;         // check_ib_fabric --assign nearest (with zones)
  unsigned check_interval = 0;  // seconds between checks, 0: the templates' default (5 min)
  // Switch services passive: the fabric sweep submits their results (check_ib_fabric
  // --nagios-spool), freshness checking turns one UNKNOWN when its results stop coming.
  bool passive_nodes = false;
  std::string check_result_path = "/var/lib/nagios4/spool/checkresults";  // Nagios 4
  unsigned freshness = 0;  // seconds without a result before UNKNOWN; 0: two intervals and 1 min
  // Icinga 2: where the sweep submits them (check_ib_fabric --icinga2-*). An empty API URL is
  // the endpoint that runs the sweep, https://NodeName:5665 (in zones, each satellite's own).
  std::string icinga2_api;
  std::string icinga2_ca = "/var/lib/icinga2/certs/ca.crt";
  std::string icinga2_user = "ibpm";
  std::string icinga2_password_file = "/etc/icinga2/ibpm-api.password";
  // Or, with the CN of the sweep's client certificate: the ApiUser written too (ibpm-api-user.conf,
  // authenticated by client_cn, no password), and the sweep given that certificate and its key.
  std::string icinga2_api_user_cn;
  std::string icinga2_cert = "/etc/icinga2/ibpm-api.crt";
  std::string icinga2_key = "/etc/icinga2/ibpm-api.key";
  // Icinga 2: the CheckCommands come from the installed package (include <plugins-contrib>), so
  // ibpm-commands.conf is not written (Icinga 2 refuses a command defined twice).
  bool packaged_commands = false;
  // The site runs ibpm-events: an ib-events service (check_ib_events) on the fabric host.
  bool events = false;
  // Icinga 2 zones: the master's zone (the satellites' parent), the global zone that carries
  // the commands and templates to every node, and where endpoints listen ("HOST" or
  // "HOST:PORT", by endpoint name; an endpoint without one is connected to by its peers).
  std::string parent_zone = "master";
  std::string global_zone = "ibpm-global";
  std::map<std::string, std::string> endpoint_addresses;
};

}  // namespace ibpm::nagios_config
