// SPDX-License-Identifier: MIT

#include "site_graphs.hpp"

#include <filesystem>
#include <functional>

#include "busiest.hpp"
#include "graphs/port_errors_graph.hpp"
#include "graphs/switch_graph.hpp"
#include "graphs/utilization_graph.hpp"
#include "levels/fabric_levels.hpp"
#include "site_paths.hpp"

namespace ibpm::web {

namespace {

class GraphDrawer {
 public:
  GraphDrawer(const SiteData& data, const GraphOptions& options, const std::string& site_dir)
      : data_(data), options_(options), site_dir_(site_dir) {
    std::filesystem::create_directories(std::filesystem::path(site_dir) / "graphs");
  }

  void links(const std::vector<std::size_t>& which) {
    for (std::size_t l : which) {
      const history::LinkUsage& usage = data_.usage[l];
      if (!usage.capacity_octets_s || (!usage.a_to_b.measured && !usage.b_to_a.measured)) continue;
      const Link& link = data_.fabric().links()[l];
      const std::string a = data_.port_name(link.a), b = data_.port_name(link.b);
      draw("link-" + link_name(link), a + " - " + b + ": utilization", result_.links, l,
           [&](const graphs::ProfileGraph& g) {
             graphs::draw_utilization(*data_.reader, usage, a, b, g);
           });
    }
  }

  void switches() {
    const Fabric& fabric = data_.fabric();
    for (std::size_t i = 0; i < fabric.nodes().size(); ++i) {
      const Node& node = fabric.nodes()[i];
      if (node.type != NodeType::sw) continue;
      const std::vector<graphs::PortGroup> groups = port_groups(i);
      if (groups.empty()) continue;
      draw("switch-" + format_guid(node.guid), data_.name(i) + ": sent up and down",
           result_.switches, i, [&](const graphs::ProfileGraph& g) {
             graphs::draw_switch_traffic(*data_.reader, groups, g);
           });
    }
  }

  void port_errors() {
    for (const auto& [ref, port] : data_.ports) {
      std::vector<counters::Counter> counters;
      for (const counters::CounterSpec& s : counters::counter_specs())
        if (s.error && port.history.average_of(s.id).value_or(0) > 0) counters.push_back(s.id);
      if (counters.empty()) continue;
      draw("errors-" + format_guid(ref.node) + "-" + std::to_string(ref.port),
           data_.port_name(ref) + ": errors", result_.port_errors, ref,
           [&](const graphs::ProfileGraph& g) {
             graphs::draw_port_errors(*data_.reader, ref, counters, g);
           });
    }
  }

  SiteGraphs result() { return std::move(result_); }

 private:
  // Up: cables to switches of a higher level; down: to hosts and lower levels; across: the rest.
  std::vector<graphs::PortGroup> port_groups(std::size_t node_index) const {
    const Fabric& fabric = data_.fabric();
    const Node& node = fabric.nodes()[node_index];
    const int level = data_.levels->level(node_index);
    graphs::PortGroup up{"sent up", {}, 0}, down{"sent down", {}, 0}, across{"sent across", {}, 0};
    node.for_each_port([&](const Port& port) {
      if (!port.link) return;
      const auto remote = fabric.remote({node.guid, port.number});
      const history::LinkUsage* usage = data_.link_usage(*port.link);
      if (!remote || !usage || !usage->capacity_octets_s) return;
      const int remote_level = data_.levels->level(fabric.index_of(remote->node));
      graphs::PortGroup& group = remote_level > level ? up : remote_level < level ? down : across;
      group.ports.push_back({node.guid, port.number});
      group.capacity_octets_s += *usage->capacity_octets_s;
    });
    std::vector<graphs::PortGroup> groups;
    for (graphs::PortGroup* g : {&down, &up, &across}) {
      if (g->ports.empty()) continue;
      g->label += " (" + std::to_string(g->ports.size()) + " ports)";
      groups.push_back(std::move(*g));
    }
    return groups;
  }

  template <typename Key>
  void draw(const std::string& stem, const std::string& title, std::map<Key, std::string>& into,
            const Key& key, const std::function<void(const graphs::ProfileGraph&)>& drawer) {
    const std::string file = "graphs/" + stem + "." + options_.format;
    graphs::ProfileGraph graph;
    graph.output = (std::filesystem::path(site_dir_) / file).string();
    graph.title = title;
    graph.start = data_.window.start;
    graph.end = data_.window.end;
    graph.width = 560;
    graph.height = 140;
    try {
      drawer(graph);
      into.emplace(key, file);
    } catch (const std::exception& e) {
      if (result_.failed++ == 0) result_.first_failure = e.what();
    }
  }

  const SiteData& data_;
  const GraphOptions& options_;
  std::string site_dir_;
  SiteGraphs result_;
};

}  // namespace

SiteGraphs draw_site_graphs(const SiteData& data, const GraphOptions& options,
                            const std::string& site_dir) {
  if (options.scope == GraphScope::none || !data.reader || data.usage.empty()) return {};
  GraphDrawer drawer(data, options, site_dir);
  if (options.scope == GraphScope::all) {
    std::vector<std::size_t> all(data.usage.size());
    for (std::size_t l = 0; l < all.size(); ++l) all[l] = l;
    drawer.links(all);
  } else {
    drawer.links(busiest_links(data.usage, options.busiest));
  }
  drawer.switches();
  drawer.port_errors();
  return drawer.result();
}

}  // namespace ibpm::web
