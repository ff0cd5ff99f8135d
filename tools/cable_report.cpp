// SPDX-License-Identifier: MIT

#include "cable_report.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <stdexcept>

#include "base/csv.hpp"
#include "base/json.hpp"
#include "base/text.hpp"

namespace ibpm::tools {

namespace {

std::vector<std::size_t> sorted(const std::set<std::size_t>& set) {
  return {set.begin(), set.end()};
}

DirectionImpact direction(const routes::RouteMap& map, PortRef from, PortRef to,
                          const std::vector<routes::JobEndpoints>& jobs) {
  DirectionImpact impact{from, to, routes::pairs_through(map, from), {}, {}, {}};
  std::set<std::size_t> sources, destinations;
  for (const auto& [s, d] : impact.pairs) {
    sources.insert(s);
    destinations.insert(d);
  }
  impact.sources = sorted(sources);
  impact.destinations = sorted(destinations);
  for (const routes::JobEndpoints& job : jobs) {
    JobImpact j{job.id, 0, 0};
    std::set<std::size_t> hosts;
    for (const auto& [s, d] : impact.pairs) {
      if (!job.endpoints.count(s) || !job.endpoints.count(d)) continue;
      ++j.pairs;
      hosts.insert(s);
      hosts.insert(d);
    }
    j.hosts = hosts.size();
    if (j.pairs) impact.jobs.push_back(j);
  }
  std::stable_sort(impact.jobs.begin(), impact.jobs.end(),
                   [](const JobImpact& a, const JobImpact& b) { return a.pairs > b.pairs; });
  return impact;
}

// Endpoints grouped by leaf name, leaves in name order, hosts in endpoint order.
std::map<std::string, std::vector<std::string>> by_leaf(const route_check::RouteNames& names,
                                                        const std::vector<std::size_t>& endpoints) {
  std::map<std::string, std::vector<std::string>> groups;
  for (std::size_t e : endpoints) groups[names.leaf(e)].push_back(names.endpoint(e));
  return groups;
}

void print_groups_table(std::ostream& out, const char* role, const route_check::RouteNames& names,
                        const std::vector<std::size_t>& endpoints) {
  out << "  " << role << ": " << endpoints.size() << " hosts\n";
  for (const auto& [leaf, hosts] : by_leaf(names, endpoints)) {
    out << "    " << base::one_line(leaf.empty() ? "(no switch)" : leaf) << " (" << hosts.size()
        << "):";
    for (const std::string& h : hosts) out << ' ' << base::one_line(h);
    out << '\n';
  }
}

void print_table(std::ostream& out, const route_check::RouteNames& names,
                 const std::vector<DirectionImpact>& impact, PairListing listing) {
  for (const DirectionImpact& d : impact) {
    out << base::one_line(names.port(d.from)) << " -> " << base::one_line(names.port(d.to)) << ": "
        << d.pairs.size() << " host pairs, " << d.sources.size() << " sources, "
        << d.destinations.size() << " destinations\n";
    print_groups_table(out, "sources", names, d.sources);
    print_groups_table(out, "destinations", names, d.destinations);
    if (!d.jobs.empty()) {
      out << "  jobs: " << d.jobs.size() << '\n';
      for (const JobImpact& j : d.jobs)
        out << "    " << base::one_line(j.id) << ": " << j.pairs << " host pairs of " << j.hosts
            << " hosts\n";
    }
    if (listing == PairListing::every_pair) {
      out << "  pairs:\n";
      for (const auto& [s, t] : d.pairs)
        out << "    " << base::one_line(names.endpoint(s)) << " -> "
            << base::one_line(names.endpoint(t)) << '\n';
    }
  }
}

void print_csv(std::ostream& out, const route_check::RouteNames& names,
               const std::vector<DirectionImpact>& impact, PairListing listing) {
  if (listing == PairListing::every_pair) {
    out << "from,to,source,destination\n";
    for (const DirectionImpact& d : impact)
      for (const auto& [s, t] : d.pairs)
        out << base::csv_text(names.port(d.from)) << ',' << base::csv_text(names.port(d.to)) << ','
            << base::csv_text(names.endpoint(s)) << ',' << base::csv_text(names.endpoint(t))
            << '\n';
    return;
  }
  out << "from,to,role,leaf,name,pairs\n";
  for (const DirectionImpact& d : impact) {
    const std::string from = base::csv_text(names.port(d.from));
    const std::string to = base::csv_text(names.port(d.to));
    out << from << ',' << to << ",cable,,," << d.pairs.size() << '\n';
    for (const auto& [role, list] :
         {std::pair{"source", &d.sources}, {"destination", &d.destinations}})
      for (std::size_t e : *list)
        out << from << ',' << to << ',' << role << ',' << base::csv_text(names.leaf(e)) << ','
            << base::csv_text(names.endpoint(e)) << ",\n";
    for (const JobImpact& j : d.jobs)
      out << from << ',' << to << ",job,," << base::csv_text(j.id) << ',' << j.pairs << '\n';
  }
}

void print_json_groups(std::ostream& out, const route_check::RouteNames& names,
                       const std::vector<std::size_t>& endpoints) {
  out << '[';
  bool first = true;
  for (const auto& [leaf, hosts] : by_leaf(names, endpoints)) {
    out << (first ? "" : ",") << "{\"leaf\":" << base::json_string(leaf) << ",\"hosts\":[";
    for (std::size_t i = 0; i < hosts.size(); ++i)
      out << (i ? "," : "") << base::json_string(hosts[i]);
    out << "]}";
    first = false;
  }
  out << ']';
}

void print_json(std::ostream& out, const route_check::RouteNames& names,
                const std::vector<DirectionImpact>& impact, PairListing listing) {
  out << "{\"directions\":[";
  for (std::size_t i = 0; i < impact.size(); ++i) {
    const DirectionImpact& d = impact[i];
    out << (i ? "," : "") << "\n{\"from\":" << base::json_string(names.port(d.from))
        << ",\"to\":" << base::json_string(names.port(d.to)) << ",\"pairs\":" << d.pairs.size()
        << ",\"sources\":";
    print_json_groups(out, names, d.sources);
    out << ",\"destinations\":";
    print_json_groups(out, names, d.destinations);
    out << ",\"jobs\":[";
    for (std::size_t j = 0; j < d.jobs.size(); ++j)
      out << (j ? "," : "") << "{\"id\":" << base::json_string(d.jobs[j].id)
          << ",\"pairs\":" << d.jobs[j].pairs << ",\"hosts\":" << d.jobs[j].hosts << '}';
    out << ']';
    if (listing == PairListing::every_pair) {
      out << ",\"pair_list\":[";
      for (std::size_t p = 0; p < d.pairs.size(); ++p)
        out << (p ? "," : "") << '[' << base::json_string(names.endpoint(d.pairs[p].first)) << ','
            << base::json_string(names.endpoint(d.pairs[p].second)) << ']';
      out << ']';
    }
    out << '}';
  }
  out << "]}\n";
}

}  // namespace

std::vector<DirectionImpact> cable_impact(const routes::RouteMap& map, PortRef port,
                                          const std::vector<routes::JobEndpoints>& jobs) {
  const auto peer = map.fabric().remote(port);
  if (!peer) throw std::invalid_argument(port_name(map.fabric(), port, nullptr) + " has no cable");
  return {direction(map, port, *peer, jobs), direction(map, *peer, port, jobs)};
}

void print_cable_impact(std::ostream& out, const route_check::RouteNames& names,
                        const std::vector<DirectionImpact>& impact, ReportFormat format,
                        PairListing listing) {
  switch (format) {
    case ReportFormat::table:
      print_table(out, names, impact, listing);
      return;
    case ReportFormat::csv:
      print_csv(out, names, impact, listing);
      return;
    case ReportFormat::json:
      print_json(out, names, impact, listing);
      return;
  }
}

}  // namespace ibpm::tools
