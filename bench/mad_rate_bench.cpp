// SPDX-License-Identifier: MIT
// ibpm-bench-mad: how many PMA queries per second a fabric (or ibsim) answers through the MAD
// engine, at a given window. Discovers the fabric, then reads PortCounters of every connected
// port ROUNDS times, as a sweep sends them: each query made as it goes out and each reply
// counted as it arrives, none kept (a vector of every reply, zeroed and filled each round, was
// the tool's own cost, not the fabric's).
//   ibpm-bench-mad [-C CA] [-P PORT] [--window N] [--rounds N] [--class-port-info]
#include <CLI/CLI.hpp>
#include <chrono>
#include <cstdio>
#include <map>
#include <vector>

#include "mad/mad_engine.hpp"
#include "mad/pma.hpp"
#include "topology/topology.hpp"

int main(int argc, char** argv) {
  CLI::App app{"Measures the PMA query rate of the MAD engine"};
  std::string ca;
  int port = 0;
  std::size_t window = 64;
  int rounds = 5;
  app.add_option("-C", ca, "HCA");
  app.add_option("-P", port, "HCA port");
  app.add_option("--window", window, "Queries in flight");
  app.add_option("--rounds", rounds, "Times every port is read");
  CLI11_PARSE(app, argc, argv);

  try {
    ibpm::topology::DiscoveryOptions discovery;
    discovery.ca = ca;
    discovery.port = port;
    const ibpm::topology::Topology topology = ibpm::topology::discover_topology(discovery);
    struct Destination {
      unsigned lid;
      ibpm::PortNumber port;
    };
    std::vector<Destination> ports;
    for (const ibpm::Node& node : topology.fabric.nodes()) {
      for (const ibpm::Port& p : node.ports) {
        if (!p.present || p.number == 0 || !p.link) continue;
        const auto lid = node.type == ibpm::NodeType::sw ? node.port(0)->lid : p.lid;
        if (!lid) continue;
        ports.push_back({*lid, p.number});
      }
    }
    ibpm::mad::UmadPort umad(ca, port);
    ibpm::mad::MadEngine engine(umad);
    ibpm::mad::EngineOptions options;
    options.window = window;
    const ibpm::mad::MadEngine::QuerySource queries{
        [&] { return ports.size(); },
        [&](std::size_t i) { return ibpm::mad::port_counters_query(ports[i].lid, ports[i].port); }};
    std::size_t answered = 0;
    const auto count = [&answered](std::size_t, const ibpm::mad::MadReply& reply) {
      answered += reply.ok();
    };
    const auto start = std::chrono::steady_clock::now();
    for (int r = 0; r < rounds; ++r) engine.run(queries, options, count);
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::printf(
        "ports %zu rounds %d window %zu answered %zu/%zu in %.3f s: %.0f queries/s "
        "(retries %zu, ignored %zu)\n",
        ports.size(), rounds, window, answered, ports.size() * rounds, seconds, answered / seconds,
        engine.stats().retries, engine.stats().ignored);
    return answered == ports.size() * rounds ? 0 : 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "ibpm-bench-mad: %s\n", e.what());
    return 1;
  }
}
