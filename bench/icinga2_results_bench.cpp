// SPDX-License-Identifier: MIT
// ibpm-bench-icinga2: how many passive results per second submit_to_icinga2 hands to an Icinga 2
// API (the same requests check_ib_fabric --icinga2-api sends after a sweep). The results are for
// the services PREFIX00001!ib-node .. PREFIXnnnnn!ib-node, all OK with one perfdata item.
//   ibpm-bench-icinga2 --url URL --ca FILE --user NAME --password-file FILE --results N
//                      [--connections N] [--prefix sw]
#include <CLI/CLI.hpp>
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include "products/icinga2_api.hpp"

int main(int argc, char** argv) {
  CLI::App app{"Measures the passive results per second submitted to Icinga 2's API"};
  ibpm::products::Icinga2Api api;
  std::size_t count = 1000;
  std::string prefix = "sw";
  app.add_option("--url", api.url, "https://HOST:PORT")->required();
  app.add_option("--ca", api.ca_file, "The API's CA file")->required();
  app.add_option("--user", api.user, "The ApiUser")->required();
  app.add_option("--password-file", api.password_file, "Its password (mode 600)")->required();
  app.add_option("--results", count, "Results to submit");
  app.add_option("--connections", api.connections, "Kept-alive connections");
  app.add_option("--prefix", prefix, "Host names: PREFIX00001 ...");
  CLI11_PARSE(app, argc, argv);

  std::vector<ibpm::products::PassiveResult> results(count);
  for (std::size_t i = 0; i < count; ++i) {
    char host[64];
    std::snprintf(host, sizeof host, "%s%05zu", prefix.c_str(), i + 1);
    results[i] = {.host = host,
                  .service = "ib-node",
                  .state = ibpm::plugin::State::ok,
                  .output = std::string("IB NODE OK - ") + host + ": 36 ports | 'ports'=36",
                  .perfdata = {"'ports'=36"}};
  }
  const double now =
      std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
  const auto start = std::chrono::steady_clock::now();
  const ibpm::products::Icinga2Submission out = ibpm::products::submit_to_icinga2(
      api, results, now - 1, now, start + std::chrono::minutes(10));
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("results %zu connections %ld delivered %zu in %.3f s: %.0f results/s\n", count,
              api.connections, out.delivered, seconds, out.delivered / seconds);
  if (!out.reason.empty()) std::fprintf(stderr, "ibpm-bench-icinga2: %s\n", out.reason.c_str());
  return out.delivered == count ? 0 : 1;
}
