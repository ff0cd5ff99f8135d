// SPDX-License-Identifier: MIT
// Passive results handed to Icinga 2 through its REST API: a POST
// /v1/actions/process-check-result per switch service (icinga2_request.hpp), over TLS connections
// kept alive (libcurl's multi interface, Icinga2Api::connections to the endpoint, one by
// default: requests go back to back over each, several at once when the endpoint speaks HTTP/2;
// bench/icinga2_results.sh, on a loaded machine: 1.4x the results per second with four). The
// server's certificate is verified against the CA file given (and only against it); the ApiUser's
// password comes from a file only its owner can read (base/secret_file.hpp), or the client
// presents a certificate whose key is such a file.
//
// A failed submission never throws: it says how many results were not delivered and why. A
// failure of the connection (refused, a certificate that does not verify, 401 for a wrong
// password, 403) stops the submission at once; a refusal of one result (404: no such service)
// is counted, the first named, and the others go on.
#pragma once

#include <chrono>
#include <cstddef>
#include <string>
#include <vector>

#include "products/nagios_spool.hpp"

namespace ibpm::products {

struct Icinga2Api {
  std::string url;            // https://HOST:PORT (the API's base, no path)
  std::string ca_file;        // PEM: the CA the server's certificate must chain to
  std::string user;           // ApiUser name (basic authentication) ...
  std::string password_file;  // ... and the file with its password
  std::string cert_file;      // or a client certificate (PEM) the ApiUser's client_cn names
  std::string key_file;       // and its key, a file only its owner reads
  std::string check_source;   // the results' check_source (this host's name when empty)
  long connections = 1;       // kept-alive connections to the endpoint, a request in flight each
};

struct Icinga2Submission {
  std::size_t delivered = 0;
  std::size_t not_delivered = 0;
  std::string reason;  // why (the first failure), empty when all were delivered
};

// Submits every result, each with execution_start/end `start`/`finish` (epoch seconds), giving
// up at `deadline`: what is left then is not delivered, and the reason names the URL and what the
// request was at ("https://icinga:5665: no time left (the check's timeout) in the TLS handshake";
// while connecting, waiting for the answer to HOST!SERVICE, reading the answer to it). The CA,
// certificate and key files are read here, bounded (a FIFO is refused), and handed to libcurl
// as bytes.
Icinga2Submission submit_to_icinga2(const Icinga2Api& api,
                                    const std::vector<PassiveResult>& results, double start,
                                    double finish, std::chrono::steady_clock::time_point deadline);

}  // namespace ibpm::products
