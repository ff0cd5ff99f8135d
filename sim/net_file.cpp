// SPDX-License-Identifier: MIT

#include "sim/net_file.hpp"

#include <charconv>
#include <stdexcept>

#include "dump/ibsim_net_syntax.hpp"

namespace ibpm::sim {
namespace {

void append_port_line(std::string& out, const NetTopology& t, NetPort port) {
  NetPort peer = *t.peer(port);
  const std::string& peer_name = t.node(peer.node).name;
  const PortSetting& setting = t.setting(port);
  // ibsim 0.10 knows SDR..NDR and FDR10.
  if (setting.speed == LinkSpeed::xdr)
    throw std::invalid_argument("ibsim cannot simulate XDR links");
  out += dump::ibsim_port_link(port.port, peer_name, peer.port);
  out += "\t# ";
  out += dump::ibsim_link_trailer(peer_name, setting.width, setting.speed);
  out += '\n';
}

int leading_number(std::string_view text) {
  std::size_t i = 0;
  while (i < text.size() && (text[i] < '0' || text[i] > '9')) ++i;
  int value = 0;
  std::from_chars(text.data() + i, text.data() + text.size(), value);
  return value;
}

}  // namespace

std::string to_ibsim_net(const NetTopology& topology, std::string_view comment) {
  std::string out;
  out.reserve(topology.links().size() * 2 * 48 + topology.nodes().size() * 32);
  std::size_t start = 0;
  while (start < comment.size()) {
    std::size_t end = comment.find('\n', start);
    if (end == std::string_view::npos) end = comment.size();
    out += "# ";
    out += comment.substr(start, end - start);
    out += '\n';
    start = end + 1;
  }
  if (!comment.empty()) out += '\n';
  for (std::size_t n = 0; n < topology.nodes().size(); ++n) {
    const NetNode& node = topology.node(n);
    out += dump::ibsim_node_record(node.type == NodeType::sw, node.port_count);
    out += "\t\"";
    out += node.name;
    out += "\"\n";
    for (int p = 1; p <= node.port_count; ++p)
      if (topology.link_at({n, p})) append_port_line(out, topology, {n, p});
    out += '\n';
  }
  return out;
}

NetSize measure_net(std::string_view text) {
  NetSize size;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(start, end - start);
    start = end + 1;
    // The keywords ibsim itself recognises at the start of a line.
    if (line.starts_with("Switch")) {
      ++size.nodes;
      ++size.switches;
      size.ports += leading_number(line.substr(6)) + 1;
    } else if (line.starts_with("Hca") || line.starts_with("Ca") || line.starts_with("Rt")) {
      ++size.nodes;
      size.ports += leading_number(line.substr(line.starts_with("Hca") ? 3 : 2));
    }
  }
  return size;
}

NetSize measure_net(const NetTopology& topology) {
  NetSize size;
  for (const NetNode& node : topology.nodes()) {
    ++size.nodes;
    size.ports += node.port_count;
    if (node.type == NodeType::sw) {
      ++size.switches;
      ++size.ports;
    }
  }
  return size;
}

std::vector<std::string> ibsim_capacity_args(const NetSize& size) {
  std::vector<std::string> args;
  auto raise = [&args](const char* flag, int needed, int limit) {
    if (needed > limit) {
      args.push_back(flag);
      args.push_back(std::to_string(needed));
    }
  };
  raise("-N", size.nodes, dump::kIbsimDefaultLimits.nodes);
  raise("-S", size.switches, dump::kIbsimDefaultLimits.switches);
  raise("-P", size.ports, dump::kIbsimDefaultLimits.ports);
  return args;
}

}  // namespace ibpm::sim
