// SPDX-License-Identifier: MIT

#include "site_writer.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <stdexcept>

#include "base/atomic_dir.hpp"
#include "pages.hpp"
#include "site_paths.hpp"
#include "viz/draw_process.hpp"
#include "viz/maps.hpp"
#include "web_assets.hpp"

namespace ibpm::web {

namespace fs = std::filesystem;

namespace {

constexpr const char* kMarker = ".ibpm-web";

std::string replaceable(const std::string& dir) {
  std::error_code ec;
  if (fs::exists(fs::path(dir) / kMarker, ec) || fs::is_empty(dir, ec)) return {};
  return dir + " is not empty and holds no site written by ibpm-web: give it a folder of its own";
}

// Written over in place when the file is there (the staging folder reuses the last site's): not
// truncated to nothing first, which makes ext4 write the file out at close and, mounted with
// discard, discard its blocks; only a shorter page cuts the tail.
void write_file(const fs::path& path, std::string_view content) {
  fs::create_directories(path.parent_path());
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644);
  if (fd < 0) throw std::runtime_error(path.string() + ": cannot write: " + std::strerror(errno));
  std::size_t done = 0;
  while (done < content.size()) {
    const ssize_t n = ::write(fd, content.data() + done, content.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    done += static_cast<std::size_t>(n);
  }
  const int error = done < content.size() ? errno : 0;
  const bool cut = ::ftruncate(fd, static_cast<off_t>(content.size())) == 0;
  if (::close(fd) != 0 || error != 0 || !cut)
    throw std::runtime_error(path.string() +
                             ": cannot write: " + std::strerror(error != 0 ? error : errno));
}

// The map as SVG (with its drill-down maps in maps/ when folded by pods); inline in the overview
// it starts at <svg (no XML prolog, no DOCTYPE).
std::string write_map_svg(const SiteData& data, const WriteOptions& write, const fs::path& root) {
  viz::MapSetOptions options;
  options.map.fold = *viz::parse_fold_mode(write.fold);
  options.map.names = data.name_map();
  options.maps_dir = "maps";
  const fs::path path = root / "map.svg";
  // ibpm-draw (Graphviz), beside this executable or $IBPM_DRAW
  viz::DrawProcess draw(viz::draw_program(), write.draw_limit);
  viz::write_map_set(data.fabric(), *data.levels, data.annotations, options, viz::MapFormat::svg,
                     path.string(), draw);
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

std::string inline_svg(const std::string& svg) {
  const std::size_t start = svg.find("<svg");
  if (start == std::string::npos) throw std::runtime_error("Graphviz gave no SVG for the map");
  return svg.substr(start);
}

std::string generated_text(const SiteData& data) {
  char when[64];
  std::tm tm{};
  gmtime_r(&data.generated, &tm);
  std::strftime(when, sizeof when, "%Y-%m-%d %H:%M UTC", &tm);
  std::string text = std::string("generated ") + when + "; " + viz::describe_window(data.window);
  // Only where the history was read: a site of the topology alone says nothing of it.
  if (data.reader) text += "; " + history::describe_coverage(data.coverage);
  return text;
}

}  // namespace

WriteReport write_site(const SiteData& data, const WriteOptions& options) {
  // The last run's pages are written over, not deleted and made again (atomic_dir.hpp).
  base::StagedFolder staged(options.output, replaceable, base::Staging::reuse_spare);
  const fs::path root(staged.path());
  WriteReport report;
  write_file(root / kMarker,
             "A site written by ibpm-web: the folder is replaced whole at each run.\n");
  write_file(root / "style.css", assets::style_css);
  write_file(root / "sort.js", assets::sort_js);
  write_file(root / "map.js", assets::map_js);

  const SiteGraphs graphs = draw_site_graphs(data, options.graphs, staged.path());
  report.graphs = graphs.links.size() + graphs.switches.size() + graphs.port_errors.size();
  report.failed_graphs = graphs.failed;
  const SiteContext site{data, graphs, generated_text(data), options.busiest};

  const std::string svg = write_map_svg(data, options, root);
  auto add_page = [&](const std::string& path, const std::string& html) {
    write_file(root / path, html);
    ++report.pages;
  };
  add_page("index.html", overview_page(site, inline_svg(svg)));
  add_page("locality.html", locality_page(site));
  add_page("congestion.html", congestion_page(site));
  add_page("switches.html", switches_page(site));
  const Fabric& fabric = data.fabric();
  for (std::size_t i = 0; i < fabric.nodes().size(); ++i)
    add_page(node_page(fabric.nodes()[i].guid), node_page_html(site, i));
  for (std::size_t l = 0; l < fabric.links().size(); ++l)
    add_page(link_page(fabric.links()[l]), link_page_html(site, l));
  staged.commit();
  return report;
}

}  // namespace ibpm::web
