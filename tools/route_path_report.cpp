// SPDX-License-Identifier: MIT

#include "route_path_report.hpp"

#include <cstdio>

#include "base/csv.hpp"
#include "base/json.hpp"
#include "base/text.hpp"

namespace ibpm::tools {

namespace {

std::string hex_guid(Guid guid) {
  char text[24];
  std::snprintf(text, sizeof text, "0x%016llx", static_cast<unsigned long long>(guid));
  return text;
}

const char* type_word(const Node& node) {
  switch (node.type) {
    case NodeType::ca:
      return "ca";
    case NodeType::sw:
      return "switch";
    case NodeType::router:
      return "router";
    default:
      return "???";
  }
}

// The LID range of the port that answers for `port` ("2-2"); a switch's is its port 0's.
std::string lid_range(const Node& node, PortNumber port) {
  const Port* p = node.port(node.type == NodeType::sw ? 0 : port);
  if (!p || !p->lid) return "0-0";
  return std::to_string(*p->lid) + "-" + std::to_string(*p->lid + (1u << p->lmc) - 1);
}

// The GUID ibtracert shows for a port: the port's own, a switch's port 0's, else the node's.
Guid port_guid(const Node& node, PortNumber port) {
  const Port* p = node.port(node.type == NodeType::sw ? 0 : port);
  return p && p->guid ? *p->guid : node.guid;
}

std::string end_line(const char* prompt, const Node& node, PortNumber port,
                     const std::string& name) {
  return std::string(prompt) + " " + type_word(node) + " {" + hex_guid(node.guid) + "} portnum " +
         std::to_string(node.type == NodeType::sw ? 0 : port) + " lid " + lid_range(node, port) +
         " \"" + base::one_line(name) + "\"";
}

void print_table(std::ostream& out, const routes::RouteMap& map,
                 const route_check::RouteNames& names, PortRef source, PortRef destination,
                 const routes::Route& route) {
  const Fabric& fabric = map.fabric();
  out << end_line("From", fabric.node(source.node), source.port, names.node(source.node)) << '\n';
  for (const routes::Hop& hop : route.hops) {
    const Node& to = fabric.node(hop.to.node);
    out << '[' << unsigned{hop.from.port} << "] -> " << type_word(to) << " port {"
        << hex_guid(port_guid(to, hop.to.port)) << "}[" << unsigned{hop.to.port} << "] lid "
        << lid_range(to, hop.to.port) << " \"" << base::one_line(names.node(to.guid)) << "\"\n";
  }
  if (route.end == routes::RouteEnd::delivered) {
    out << end_line("To", fabric.node(destination.node), destination.port,
                    names.node(destination.node))
        << '\n';
  } else {
    out << "Route stops at \"" << base::one_line(names.node(route.stopped_at))
        << "\": " << routes::to_string(route.end) << '\n';
  }
}

std::string json_port(const route_check::RouteNames& names, PortRef port) {
  return "{\"node\":" + base::json_string(names.node(port.node)) + ",\"guid\":\"" +
         hex_guid(port.node) + "\",\"port\":" + std::to_string(port.port) + "}";
}

}  // namespace

void print_route(std::ostream& out, const routes::RouteMap& map,
                 const route_check::RouteNames& names, PortRef source, PortRef destination,
                 const routes::Route& route, ReportFormat format) {
  const unsigned dlid = map.fabric().find_port(destination)->lid.value_or(0);
  switch (format) {
    case ReportFormat::table:
      print_table(out, map, names, source, destination, route);
      return;
    case ReportFormat::csv:
      out << "hop,from,from_guid,from_port,to,to_guid,to_port\n";
      for (std::size_t i = 0; i < route.hops.size(); ++i) {
        const routes::Hop& hop = route.hops[i];
        out << i + 1 << ',' << base::csv_text(names.node(hop.from.node)) << ','
            << hex_guid(hop.from.node) << ',' << unsigned{hop.from.port} << ','
            << base::csv_text(names.node(hop.to.node)) << ',' << hex_guid(hop.to.node) << ','
            << unsigned{hop.to.port} << '\n';
      }
      return;
    case ReportFormat::json:
      out << "{\"source\":" << json_port(names, source)
          << ",\"destination\":" << json_port(names, destination) << ",\"dlid\":" << dlid
          << ",\"end\":" << base::json_string(routes::to_string(route.end))
          << ",\"stopped_at\":" << base::json_string(names.node(route.stopped_at)) << ",\"hops\":[";
      for (std::size_t i = 0; i < route.hops.size(); ++i)
        out << (i ? "," : "") << "{\"from\":" << json_port(names, route.hops[i].from)
            << ",\"to\":" << json_port(names, route.hops[i].to) << '}';
      out << "]}\n";
      return;
  }
}

}  // namespace ibpm::tools
