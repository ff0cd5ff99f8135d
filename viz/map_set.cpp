// SPDX-License-Identifier: MIT

#include "viz/map_set.hpp"

#include <filesystem>
#include <fstream>
#include <stdexcept>

#include "base/atomic_dir.hpp"
#include "viz/map_text.hpp"

namespace ibpm::viz {

namespace fs = std::filesystem;

namespace {

constexpr const char* kMarker = ".ibpm-map";

std::string extension_of(MapFormat format) {
  switch (format) {
    case MapFormat::svg:
      return ".svg";
    case MapFormat::png:
      return ".png";
    case MapFormat::pdf:
      return ".pdf";
    case MapFormat::dot:
      break;
  }
  return ".dot";
}

bool relative_url(const std::string& prefix) {
  return prefix.find("://") == std::string::npos && !prefix.starts_with('/');
}

class DrillDownWriter {
 public:
  DrillDownWriter(const Fabric& fabric, const levels::FabricLevels& levels,
                  const MapAnnotations& annotations, const MapSetOptions& options, MapFormat format,
                  const fs::path& overview, MapRenderer& renderer)
      : renderer_(renderer),
        fabric_(fabric),
        levels_(levels),
        annotations_(annotations),
        options_(options),
        format_(format),
        extension_(extension_of(format)),
        overview_(overview),
        units_(fold_units(fabric, levels, options.map.names)) {
    maps_dir_ = options.maps_dir.empty() ? overview.stem().string() + "-maps" : options.maps_dir;
  }

  WrittenMaps write() {
    WrittenMaps written;
    written.fold = FoldMode::pods;
    FoldView view = blank_view();
    view.maps_url = maps_dir_ + "/";
    view.title =
        "overview, folded by pods and groups (" + std::to_string(units_.units.size()) + " units)";
    const MapGraph overview = build(view, options_.map.url_prefix);
    written.overview_nodes = overview.nodes.size();
    written.overview_edges = overview.edges.size();
    if (format_ != MapFormat::svg) {  // a picture has no links to follow: the overview alone
      renderer_.render(overview, format_, overview_.string());
      renderer_.finish();
      return written;
    }
    const fs::path folder = overview_.parent_path() / maps_dir_;
    base::StagedFolder staged(folder.string(), [](const std::string& dir) -> std::string {
      std::error_code ec;
      if (fs::exists(fs::path(dir) / kMarker, ec) || fs::is_empty(dir, ec)) return {};
      return dir + " is not empty and holds no maps written by ibpm-map: name another --maps-dir";
    });
    std::ofstream(fs::path(staged.path()) / kMarker)
        << "Maps written by ibpm-map: the folder is replaced whole at each run.\n";
    const std::string part_prefix = relative_url(options_.map.url_prefix)
                                        ? "../" + options_.map.url_prefix
                                        : options_.map.url_prefix;
    const std::string up = "../" + overview_.filename().string();
    for (const FoldUnit& unit : units_.units) {
      // A leaf's map is its hosts' map, below; a leaf without hosts gets the map of a unit.
      if (unit.kind == UnitKind::leaf && has_hosts(unit.switches.front())) continue;
      FoldView part = blank_view();
      for (std::size_t s : unit.switches) part.itself[s] = true;
      part.title = unit.name;
      part.up_url = up;
      renderer_.render(build(part, part_prefix), format_,
                       (fs::path(staged.path()) / unit_map_name(unit, extension_)).string());
      ++written.drill_down_maps;
    }
    for (std::size_t leaf = 0; leaf < fabric_.nodes().size(); ++leaf) {
      if (!has_hosts(leaf)) continue;
      const FoldUnit& unit = units_.units[units_.unit_of[leaf]];
      FoldView part = blank_view();
      part.itself[leaf] = true;
      for (std::size_t n : neighbours(leaf))
        if (units_.home_of[n] == leaf) part.itself[n] = true;  // its hosts; the rest as units
      part.title = short_name(fabric_.nodes()[leaf], options_.map.names) + " and its hosts";
      part.up_url = unit.kind == UnitKind::leaf ? up : unit_map_name(unit, extension_);
      renderer_.render(
          build(part, part_prefix), format_,
          (fs::path(staged.path()) / leaf_map_name(fabric_.nodes()[leaf].guid, extension_))
              .string());
      ++written.drill_down_maps;
    }
    // The overview last: its links then lead to maps that exist.
    renderer_.finish();
    staged.commit();
    renderer_.render(overview, format_, overview_.string());
    renderer_.finish();
    written.maps_dir = folder.string();
    return written;
  }

 private:
  FoldView blank_view() const {
    FoldView view;
    view.units = &units_;
    view.itself.assign(fabric_.nodes().size(), false);
    view.extension = extension_;
    return view;
  }

  MapGraph build(const FoldView& view, const std::string& url_prefix) const {
    MapOptions options = options_.map;
    options.view = &view;
    options.url_prefix = url_prefix;
    return build_map(fabric_, levels_, annotations_, options);
  }

  bool has_hosts(std::size_t sw) const {
    if (fabric_.nodes()[sw].type != NodeType::sw || units_.unit_of[sw] == kNoUnit) return false;
    for (const Port& p : fabric_.nodes()[sw].ports) {
      if (!p.present || !p.link) continue;
      const Link& link = fabric_.links()[*p.link];
      const Guid far = link.a.node == fabric_.nodes()[sw].guid && link.a.port == p.number
                           ? link.b.node
                           : link.a.node;
      const std::size_t n = fabric_.index_of(far);
      if (units_.home_of[n] == sw && n != sw) return true;
    }
    return false;
  }

  // Every node cabled to `sw`.
  std::vector<std::size_t> neighbours(std::size_t sw) const {
    std::vector<std::size_t> out;
    const Node& node = fabric_.nodes()[sw];
    for (const Port& p : node.ports) {
      if (!p.present || !p.link) continue;
      const Link& link = fabric_.links()[*p.link];
      out.push_back(fabric_.index_of(
          link.a.node == node.guid && link.a.port == p.number ? link.b.node : link.a.node));
    }
    return out;
  }

  MapRenderer& renderer_;
  const Fabric& fabric_;
  const levels::FabricLevels& levels_;
  const MapAnnotations& annotations_;
  const MapSetOptions& options_;
  MapFormat format_;
  std::string extension_;
  fs::path overview_;
  std::string maps_dir_;
  FoldUnits units_;
};

}  // namespace

FoldMode choose_fold(const Fabric& fabric, const levels::FabricLevels& levels,
                     const MapAnnotations& annotations, const MapOptions& options) {
  if (options.fold != FoldMode::automatic) return options.fold;
  if (fabric.nodes().size() <= options.fold_above)
    return hosts_too_wide_to_draw(fabric, levels, options.names) ? FoldMode::hosts : FoldMode::none;
  MapOptions hosts = options;
  hosts.fold = FoldMode::hosts;
  const MapGraph map = build_map(fabric, levels, annotations, hosts);
  return map.nodes.size() + map.edges.size() <= kFoldBudget ? FoldMode::hosts : FoldMode::pods;
}

WrittenMaps write_map_set(const Fabric& fabric, const levels::FabricLevels& levels,
                          const MapAnnotations& annotations, const MapSetOptions& options,
                          MapFormat format, const std::string& path, MapRenderer& renderer) {
  // The name goes into the overview's links as it is: a path would publish the server's folders
  // and break the links wherever the maps are copied.
  const std::string& dir = options.maps_dir;
  if (!dir.empty() && (dir.find('/') != std::string::npos || dir == "." || dir == ".."))
    throw std::runtime_error("--maps-dir " + dir +
                             ": give a folder name (it is made next to the output and named in "
                             "the map's links), not a path");
  const FoldMode fold = choose_fold(fabric, levels, annotations, options.map);
  if (fold == FoldMode::pods)
    return DrillDownWriter(fabric, levels, annotations, options, format, fs::path(path), renderer)
        .write();
  MapOptions single = options.map;
  single.fold = fold;
  const MapGraph map = build_map(fabric, levels, annotations, single);
  renderer.render(map, format, path);
  renderer.finish();
  WrittenMaps written;
  written.fold = fold;
  written.overview_nodes = map.nodes.size();
  written.overview_edges = map.edges.size();
  return written;
}

}  // namespace ibpm::viz
