// SPDX-License-Identifier: MIT

#include "fabric_summary.hpp"

#include <map>

#include "topology/link_speed_check.hpp"

namespace ibpm::tools {
namespace {

std::string rate_name(const topology::LinkRate& rate) {
  return (rate.width ? std::string(to_string(*rate.width)) : "?") +
         (rate.speed ? std::string(to_string(*rate.speed)) : "?");
}

}  // namespace

void print_fabric_summary(std::ostream& out, const topology::Topology& topology) {
  const Fabric& f = topology.fabric;
  std::size_t switch_links = 0, ca_links = 0, self_loops = 0, degraded = 0;
  std::uint64_t capacity = 0;
  std::map<std::string, std::size_t> rates;
  for (const Link& link : f.links()) {
    const Node& a = f.node(link.a.node);
    const Node& b = f.node(link.b.node);
    if (a.guid == b.guid) ++self_loops;
    if (a.type == NodeType::sw && b.type == NodeType::sw)
      ++switch_links;
    else
      ++ca_links;
    topology::LinkRate rate = topology::active_rate(f, link);
    ++rates[rate_name(rate)];
    if (rate.width && rate.speed) capacity += link_capacity_bps(*rate.width, *rate.speed);
    degraded += static_cast<bool>(topology::check_link_rate(f, link, std::nullopt));
  }
  out << "Fabric from " << topology.origin << "\n"
      << "  switches " << f.count(NodeType::sw) << ", CAs " << f.count(NodeType::ca) << ", routers "
      << f.count(NodeType::router) << "\n"
      << "  links " << f.links().size() << " (switch-switch " << switch_links << ", to CAs/routers "
      << ca_links << ", self-loops " << self_loops << ")\n"
      << "  link rates:";
  for (const auto& [name, n] : rates) out << " " << name << " " << n;
  out << "\n  capacity " << capacity / 1'000'000'000 << " Gb/s per direction\n"
      << "  links below what both ends enable: " << degraded << "\n"
      << "  input warnings: " << topology.warnings.size() << "\n";
}

}  // namespace ibpm::tools
