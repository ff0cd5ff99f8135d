// SPDX-License-Identifier: MIT

#include "viz/graphviz_render.hpp"

#include <graphviz/cgraph.h>
#include <graphviz/gvc.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <mutex>
#include <stdexcept>

#include "base/atomic_file.hpp"
#include "viz/color_scale.hpp"
#include "viz/graphviz_text.hpp"
#include "viz/legend.hpp"

namespace ibpm::viz {

namespace {

// A map wider than kMaxMapAspect times its height (or taller) that draws its hosts one by one has
// their level wrapped into rows, laid out again, until it fits or each row holds one host (the
// switch levels are never wrapped: each stays on one row, in pod order). Maps of more nodes than
// kWrapNodeLimit are laid out once (each layout takes seconds there), and so are dense maps (more
// than kWrapEdgesPerNode edges a node): rows do not make them narrower, as every edge to a lower
// row is routed through the rows above.
constexpr double kTargetAspect = 1.6;  // aimed at, to reach kMaxMapAspect in few layouts
constexpr std::size_t kWrapNodeLimit = 1000;
constexpr std::size_t kWrapEdgesPerNode = 3;
constexpr int kMaxLayouts = 6;

// What the renderers can draw without scaling the picture down: cairo's bitmaps hold at most
// 32,767 pixels a side (PNG at Graphviz's 96 dpi); PDF pages at most 200 inches (14,400 pt).
constexpr double kPngMaxPixels = 32767;
constexpr double kPngDpi = 96;
constexpr double kPdfMaxPoints = 14400;
// The narrowest a node and the gap beside it can be (width 0.3 in, nodesep 0.12 in), in points.
constexpr double kMinNodePitchPt = (0.3 + 0.12) * 72;

// Graphviz's name of the format (to_string's views are of literals: terminated).
const char* format_name(MapFormat format) { return to_string(format).data(); }

char* c(const std::string& s) { return const_cast<char*>(s.c_str()); }
char* c(const char* s) { return const_cast<char*>(s); }

// Graphviz reports errors through a process-wide callback: collect them for the exception.
std::mutex graphviz_lock;
std::string graphviz_errors;
int collect_error(char* message) {
  std::string m = message ? message : "";
  while (!m.empty() && (m.back() == '\n' || m.back() == ' ')) m.pop_back();
  if (!m.empty()) graphviz_errors += (graphviz_errors.empty() ? "" : "; ") + m;
  return 0;
}

std::string fmt(double value) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.2f", value);
  return buffer;
}

// One Graphviz context for the whole process, never freed. Graphviz 2.42's pango plugin keeps a
// pointer to the last font name it laid out (a static in pango_textlayout), and that name lives
// in the context: freeing the context and laying out another map reads freed memory.
GVC_t* shared_context() {
  static GVC_t* context = gvContext();
  return context;
}

struct MapSize {
  double width = 0;  // points
  double height = 0;
  double aspect() const {
    if (width <= 0 || height <= 0) return 1;
    return std::max(width / height, height / width);
  }
};

std::map<int, std::size_t> wrappable_levels(const MapGraph& map);

class GraphvizMap {
 public:
  // row_width: at most this many nodes side by side in one level (0: no limit).
  GraphvizMap(const MapGraph& map, std::size_t row_width) : map_(map), row_width_(row_width) {
    agseterr(AGERR);
    agseterrf(collect_error);
    graphviz_errors.clear();
    gvc_ = shared_context();
    graph_ = agopen(c("fabric"), Agdirected, nullptr);
    set_defaults();
    add_nodes();
    add_edges();
    add_legend();
  }
  ~GraphvizMap() {
    if (laid_out_) gvFreeLayout(gvc_, graph_);
    agclose(graph_);
  }
  GraphvizMap(const GraphvizMap&) = delete;
  GraphvizMap& operator=(const GraphvizMap&) = delete;

  void layout() {
    if (gvLayout(gvc_, graph_, "dot") != 0) fail("layout failed");
    laid_out_ = true;
  }

  MapSize size() const {
    const boxf bb = GD_bb(graph_);
    return {bb.UR.x - bb.LL.x, bb.UR.y - bb.LL.y};
  }

  void render_file(MapFormat format, const std::string& path) {
    if (format == MapFormat::dot) {
      std::FILE* f = std::fopen(path.c_str(), "w");
      if (!f) return fail("cannot write " + path);
      const bool written = agwrite(graph_, f) == 0;
      if (std::fclose(f) != 0 || !written) fail("cannot write " + path);
      return;
    }
    if (gvRenderFilename(gvc_, graph_, format_name(format), path.c_str()) != 0)
      fail(std::string("cannot render ") + format_name(format));
  }

  std::string render_data(MapFormat format) {
    char* data = nullptr;
    unsigned int length = 0;
    if (format == MapFormat::dot) {
      std::size_t size = 0;
      std::FILE* f = open_memstream(&data, &size);
      if (!f) fail("out of memory");
      const bool written = agwrite(graph_, f) == 0;
      std::fclose(f);
      std::string out(data, size);
      std::free(data);
      if (!written) fail("cannot write the graph");
      return out;
    }
    if (gvRenderData(gvc_, graph_, format_name(format), &data, &length) != 0)
      fail(std::string("cannot render ") + format_name(format));
    std::string out(data, length);
    gvFreeRenderData(data);
    return out;
  }

 private:
  [[noreturn]] void fail(const std::string& what) const {
    throw std::runtime_error(graphviz_errors.empty() ? what : what + ": " + graphviz_errors);
  }

  void set_defaults() {
    const bool big = map_.edges.size() > kSplineEdgeLimit;
    const std::pair<const char*, std::string> graph_attrs[] = {
        {"rankdir", "TB"},
        {"newrank", "true"},  // rank=same across chassis clusters
        {"splines", big ? "line" : "true"},
        {"outputorder", "edgesfirst"},
        {"nodesep", "0.12"},
        {"ranksep", big ? "2.5" : "1.0"},
        {"bgcolor", "white"},
        {"pad", "0.3"},
        {"fontname", "Helvetica"},
        {"tooltip", "InfiniBand fabric health map"},
        {"remincross", "false"},
        {"mclimit", big ? "0.2" : "1"},
    };
    for (const auto& [name, value] : graph_attrs) agattr(graph_, AGRAPH, c(name), c(value));
    const std::pair<const char*, const char*> node_attrs[] = {
        {"shape", "box"},
        {"style", "filled"},
        {"fontname", "Helvetica"},
        {"fontsize", "10"},
        {"margin", "0.05,0.03"},
        {"height", "0.3"},
        {"width", "0.3"},
        {"penwidth", "1"},
        {"color", "#404040"},
        {"fillcolor", "#ffffff"},
        {"label", ""},
        {"tooltip", ""},
        {"URL", ""},
        {"id", ""},
    };
    for (const auto& [name, value] : node_attrs) agattr(graph_, AGNODE, c(name), c(value));
    const std::pair<const char*, const char*> edge_attrs[] = {
        {"dir", "none"},   {"color", kNoDataColor.c_str()},
        {"penwidth", "1"}, {"style", "solid"},
        {"xlabel", ""},    {"fontname", "Helvetica"},
        {"fontsize", "9"}, {"fontcolor", "#000000"},
        {"tooltip", ""},   {"URL", ""},
        {"id", ""},
    };
    for (const auto& [name, value] : edge_attrs) agattr(graph_, AGEDGE, c(name), c(value));
  }

  std::string node_label(const MapNode& node) const {
    std::string label;
    for (std::size_t i = 0; i < node.lines.size(); ++i) {
      const std::string text = html_text(node.lines[i]);
      label += i == 0 ? "<B>" + text + "</B>" : "<BR/>" + text;
    }
    return label.empty() ? " " : label;
  }

  void add_nodes() {
    std::vector<Agraph_t*> clusters;
    for (std::size_t k = 0; k < map_.chassis.size(); ++k) {
      Agraph_t* cluster = agsubg(graph_, c("cluster_chassis" + std::to_string(k)), 1);
      agsafeset(cluster, c("label"), agstrdup_html(graph_, c(html_text(map_.chassis[k]))), c(""));
      agsafeset(cluster, c("style"), c("rounded,dashed"), c(""));
      agsafeset(cluster, c("color"), c("#808080"), c(""));
      agsafeset(cluster, c("fontsize"), c("10"), c(""));
      clusters.push_back(cluster);
    }
    for (const MapNode& node : map_.nodes) {
      Agnode_t* n = agnode(graph_, c(node.id), 1);
      nodes_.push_back(n);
      if (node.chassis) agsubnode(clusters.at(*node.chassis), n, 1);
      const HealthStyle health = health_style(node.health);
      agset(n, c("label"), agstrdup_html(graph_, c(node_label(node))));
      agset(n, c("fillcolor"), c(node.fill));
      agset(n, c("color"), c(health.color));
      agset(n, c("penwidth"), c(fmt(health.penwidth)));
      agset(n, c("tooltip"), c(tooltip(node.tooltip)));
      agset(n, c("id"), c(node.id));
      if (!node.url.empty()) agset(n, c("URL"), c(url_text(node.url)));
      switch (node.kind) {
        case MapNodeKind::switch_node:
          agset(n, c("style"), c("filled,rounded"));
          break;
        case MapNodeKind::host_group:
          agset(n, c("shape"), c("folder"));
          break;
        case MapNodeKind::host:
          agset(n, c("shape"), c("ellipse"));
          break;
        case MapNodeKind::unit:
          agset(n, c("shape"), c("box3d"));
          if (node.marks > 0) agset(n, c("fontcolor"), c(kErrorColor));
          break;
        case MapNodeKind::hub:
          agset(n, c("shape"), c("point"));
          agset(n, c("width"), c("0.25"));
          break;
        case MapNodeKind::other:
          agset(n, c("shape"), c("hexagon"));
          break;
      }
    }
    add_rows();
  }

  // Each level's nodes on one row, left to right in MapNode::order, kept so by invisible edges
  // from each node to the next (dot keeps a rank's flat edges pointing right). Only the levels of
  // wrappable_levels may be wrapped into rows of row_width_ nodes, one below the other, kept in
  // order by invisible edges between their first nodes. Nodes of a chassis (a cluster, which dot
  // keeps together) are chained among themselves, the others apart from them.
  void add_rows() {
    std::map<int, std::vector<std::size_t>, std::greater<>> ranks;  // top level first
    for (std::size_t k = 0; k < map_.nodes.size(); ++k) ranks[map_.nodes[k].rank].push_back(k);
    const std::map<int, std::size_t> wrappable =
        row_width_ == 0 ? std::map<int, std::size_t>{} : wrappable_levels(map_);
    Agnode_t* previous_row = nullptr;
    for (auto& [rank, members] : ranks) {
      std::stable_sort(members.begin(), members.end(), [&](std::size_t a, std::size_t b) {
        return map_.nodes[a].order < map_.nodes[b].order;
      });
      const bool wrap = wrappable.contains(rank);
      const std::size_t width = wrap ? row_width_ : members.size();
      for (std::size_t start = 0; start < members.size(); start += width) {
        const std::size_t end = std::min(members.size(), start + width);
        const std::string name = "rank_" + std::to_string(rank) + "_" + std::to_string(start);
        Agraph_t* row = agsubg(graph_, c(name), 1);
        agsafeset(row, c("rank"), c("same"), c(""));
        std::map<std::optional<std::size_t>, Agnode_t*> last;  // by chassis
        for (std::size_t k = start; k < end; ++k) {
          Agnode_t* n = nodes_.at(members[k]);
          agsubnode(row, n, 1);
          Agnode_t*& before = last[map_.nodes[members[k]].chassis];
          if (before) invisible_edge(before, n, "order_" + name + "_" + std::to_string(k), 1);
          before = n;
        }
        Agnode_t* first = nodes_.at(members[start]);
        if (previous_row && wrap) invisible_edge(previous_row, first, "row_" + name, 0);
        previous_row = first;
      }
    }
  }

  // weight 0: no pull between the ends; a flat edge needs a weight to order its ends.
  void invisible_edge(Agnode_t* from, Agnode_t* to, const std::string& name, int weight) {
    Agedge_t* e = agedge(graph_, from, to, c(name), 1);
    agsafeset(e, c("style"), c("invis"), c(""));
    agsafeset(e, c("weight"), c(std::to_string(weight)), c(""));
  }

  void add_edges() {
    // Thousands of thick lines merge into one grey band: thinner on large maps.
    const double line_scale = map_.edges.size() > kSplineEdgeLimit ? 0.4 : 1.0;
    for (std::size_t k = 0; k < map_.edges.size(); ++k) {
      const MapEdge& edge = map_.edges[k];
      Agedge_t* e = agedge(graph_, nodes_.at(edge.upper), nodes_.at(edge.lower),
                           c("e" + std::to_string(k)), 1);
      agset(e, c("color"), c(utilization_color(edge.utilization)));
      agset(e, c("penwidth"), c(fmt(capacity_penwidth(edge.capacity_bps) * line_scale)));
      const bool alarm = edge.errors_s > 0 || edge.degraded > 0;
      if (alarm) {
        agset(e, c("style"), c("dashed"));
        agset(e, c("fontcolor"), c(kErrorColor));
      }
      // Congestion by the line's pattern, so that its colour still says the utilization: the
      // root drawn as a double line, the ports waiting behind it dotted (errors win: dashed).
      if (edge.congestion == CongestionMark::root)
        agset(e, c("color"),
              c(std::string(utilization_color(edge.utilization)) +
                ":#ffffff:" + utilization_color(edge.utilization)));
      else if (edge.congestion == CongestionMark::victim && !alarm)
        agset(e, c("style"), c("dotted"));
      // xlabel: placed after layout; a label would make dot double every rank for it.
      if (!edge.label.empty())
        agset(e, c("xlabel"), agstrdup_html(graph_, c(html_text(edge.label))));
      agset(e, c("tooltip"), c(tooltip(edge.tooltip)));
      agset(e, c("id"), c("e" + std::to_string(k)));
      if (!edge.url.empty()) agset(e, c("URL"), c(url_text(edge.url)));
    }
  }

  void add_legend() {
    // Its own rank above everything else.
    Agraph_t* top = agsubg(graph_, c("legend_rank"), 1);
    agsafeset(top, c("rank"), c("source"), c(""));
    Agnode_t* legend = agsubnode(top, agnode(graph_, c("legend"), 1), 1);
    agset(legend, c("shape"), c("plain"));
    agset(legend, c("style"), c(""));
    agset(legend, c("id"), c("legend"));
    agset(legend, c("label"), agstrdup_html(graph_, c(legend_html(map_))));
    agset(legend, c("tooltip"), c("legend"));
  }

  const MapGraph& map_;
  std::size_t row_width_ = 0;
  GVC_t* gvc_ = nullptr;
  Agraph_t* graph_ = nullptr;
  std::vector<Agnode_t*> nodes_;
  bool laid_out_ = false;
};

std::string thousands(double value) {
  std::string digits = std::to_string(static_cast<long long>(value + 0.5));
  for (int at = static_cast<int>(digits.size()) - 3; at > 0; at -= 3) digits.insert(at, ",");
  return digits;
}

// Refuses what a renderer would scale down (silently, or with a warning nobody reads).
void check_renderer_limits(const MapSize& size, MapFormat format) {
  const char* advice = ": write .svg, or fold the map (--fold pods)";
  if (format == MapFormat::png) {
    const double w = size.width * kPngDpi / 72, h = size.height * kPngDpi / 72;
    if (std::max(w, h) > kPngMaxPixels)
      throw std::runtime_error("the map would be " + thousands(w) + " x " + thousands(h) +
                               " px, above the PNG renderer's " + thousands(kPngMaxPixels) +
                               " px a side" + advice);
  }
  if (format == MapFormat::pdf && std::max(size.width, size.height) > kPdfMaxPoints)
    throw std::runtime_error("the map would be " + thousands(size.width) + " x " +
                             thousands(size.height) + " pt, above PDF's " +
                             thousands(kPdfMaxPoints) + " pt a side" + advice);
}

std::size_t widest_level(const MapGraph& map) {
  std::map<int, std::size_t> count;
  std::size_t widest = 1;
  for (const MapNode& node : map.nodes) widest = std::max(widest, ++count[node.rank]);
  return widest;
}

// The levels wrapping may put on several rows, with their number of nodes: the hosts' when they
// are drawn one by one (hosts and other CAs), and levels of nothing but units (the boxes of a
// folded overview). A level of switches stays on one row.
std::map<int, std::size_t> wrappable_levels(const MapGraph& map) {
  std::map<int, std::size_t> nodes, units, single_hosts;
  for (const MapNode& n : map.nodes) {
    ++nodes[n.rank];
    units[n.rank] += n.kind == MapNodeKind::unit;
    single_hosts[n.rank] += n.rank == levels::kHostLevel &&
                            (n.kind == MapNodeKind::host || n.kind == MapNodeKind::other);
  }
  std::map<int, std::size_t> out;
  for (const auto& [rank, count] : nodes)
    if (units[rank] == count || single_hosts[rank] > 0) out[rank] = count;
  return out;
}

// Laid out (except for .dot), with the hosts' rows narrowed until the shape is close to a
// screen's (when the hosts are drawn one by one and no folding helped). A map
// whose widest level cannot fit the renderer even with the smallest nodes is refused before its
// layout (which can take minutes on an unfolded fabric).
std::unique_ptr<GraphvizMap> laid_out(const MapGraph& map, MapFormat format) {
  if (format == MapFormat::dot) return std::make_unique<GraphvizMap>(map, 0);
  check_renderer_limits({widest_level(map) * kMinNodePitchPt, 0}, format);
  auto graph = std::make_unique<GraphvizMap>(map, 0);
  graph->layout();
  MapSize size = graph->size();
  std::size_t width = 0;
  for (const auto& [rank, count] : wrappable_levels(map)) width = std::max(width, count);
  const bool wrap = map.nodes.size() <= kWrapNodeLimit &&
                    map.edges.size() <= kWrapEdgesPerNode * map.nodes.size();
  for (int k = 1; k < kMaxLayouts && wrap; ++k) {
    if (size.aspect() <= kMaxMapAspect || size.width < size.height || width <= 1) break;
    width = std::max<std::size_t>(
        1, static_cast<std::size_t>(width * std::sqrt(kTargetAspect * size.height / size.width)));
    graph.reset();
    graph = std::make_unique<GraphvizMap>(map, width);
    graph->layout();
    size = graph->size();
  }
  check_renderer_limits(size, format);
  return graph;
}

}  // namespace

void render_map(const MapGraph& map, MapFormat format, const std::string& path) {
  std::lock_guard<std::mutex> lock(graphviz_lock);
  auto graph = laid_out(map, format);
  base::replace_file(path, [&](const std::string& temporary) {
    graph->render_file(format, temporary);
    return true;
  });
}

std::string render_map_data(const MapGraph& map, MapFormat format) {
  std::lock_guard<std::mutex> lock(graphviz_lock);
  return laid_out(map, format)->render_data(format);
}

}  // namespace ibpm::viz
