// SPDX-License-Identifier: MIT

#include "topology/topology.hpp"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <stdexcept>

#include "base/atomic_file.hpp"
#include "dump/ibnetdiscover_parser.hpp"
#include "dump/ibnetdiscover_writer.hpp"
#include "dump/ports_report_parser.hpp"

namespace ibpm::topology {
namespace {

Topology from_dump(dump::ParsedDump dump, const std::string& origin) {
  Topology topology;
  topology.fabric = std::move(dump.fabric);
  topology.warnings = std::move(dump.warnings);
  topology.incomplete = std::move(dump.incomplete);
  topology.origin = origin;
  return topology;
}

Topology from_ibnd(IbndFabric ibnd, std::string origin) {
  Topology topology;
  topology.fabric = ibnd.to_fabric();
  topology.origin = std::move(origin);
  topology.ibnd = std::move(ibnd);
  return topology;
}

}  // namespace

TopologyFormat detect_topology_format(const std::string& path) {
  if (looks_like_ibnd_cache(path)) return TopologyFormat::ibnd_cache;
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot open " + path + ": " + std::strerror(errno));
  std::string line;
  // The first lines that say something decide; dumps may open with comments or a shell prompt.
  for (int seen = 0; seen < 8 && std::getline(in, line);) {
    std::string_view text(line);
    while (!text.empty() && (text.back() == '\r' || text.back() == ' ')) text.remove_suffix(1);
    if (text.empty() || text.front() == '#') continue;
    if (dump::looks_like_ports_report(text)) return TopologyFormat::ports_report;
    ++seen;
  }
  return TopologyFormat::ibnetdiscover;
}

Topology load_topology_file(const std::string& path) {
  switch (detect_topology_format(path)) {
    case TopologyFormat::ibnd_cache:
      return from_ibnd(IbndFabric::load_cache(path), path);
    case TopologyFormat::ports_report: {
      std::ifstream in(path);
      return from_dump(dump::parse_ports_report(in, path), path);
    }
    case TopologyFormat::ibnetdiscover:
      break;
  }
  Topology topology = from_dump(dump::parse_ibnetdiscover_file(path), path);
  // The dump parser reads around lines it does not know (terminal captures have plenty), so a
  // file that is no dump at all comes out empty rather than malformed.
  if (topology.fabric.nodes().empty())
    throw std::runtime_error(path + ": no InfiniBand nodes in it (not an ibnetdiscover dump?)");
  return topology;
}

Topology discover_topology(const DiscoveryOptions& options) {
  std::string origin = "discovery through " + (options.ca.empty() ? "the first HCA" : options.ca) +
                       (options.port ? " port " + std::to_string(options.port) : "");
  return from_ibnd(IbndFabric::discover(options), origin);
}

void save_topology(const Topology& topology, const std::string& path) {
  if (topology.ibnd) {
    topology.ibnd->save_cache(path);
    return;
  }
  base::replace_file_with(
      path, [&](std::ostream& out) { dump::write_ibnetdiscover(out, topology.fabric); });
}

}  // namespace ibpm::topology
