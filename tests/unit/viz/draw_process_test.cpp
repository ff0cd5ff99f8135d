// SPDX-License-Identifier: MIT
// The maps drawn by ibpm-draw (the one this build made; IBPM_DRAW, set by the tests' main) are the
// files the same maps drawn in this process would be; a failure comes back with Graphviz's reason;
// a missing ibpm-draw is named; one that never answers is killed at the limit, reaped and named.
#include "viz/draw_process.hpp"

#include <signal.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <vector>

#include "fabric/graph.hpp"
#include "map_fabrics.hpp"
#include "support/temp_dir.hpp"
#include "viz/graphviz_render.hpp"

using namespace ibpm;
using namespace ibpm::viz;
using namespace ibpm::viz::test;
namespace fs = std::filesystem;

namespace {

MapGraph drawn_map(const std::string& name) {
  const Fabric fabric = two_switches(1, 2, name);
  const levels::FabricLevels levels(fabric, make_graph(fabric));
  MapAnnotations annotations;
  size_to(annotations, fabric);
  annotations.window = "window \"" + name + "\"";
  return build_map(fabric, levels, annotations, {});
}

std::string contents(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// The lines of a DOT file, sorted: cgraph writes the rank subgraphs in an order that depends on the
// graphs the process made before (a test process has made many), not on the map.
std::vector<std::string> sorted_lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  std::sort(lines.begin(), lines.end());
  return lines;
}

}  // namespace

TEST_CASE("ibpm-draw writes the files this process would - every map of a run in one process") {
  const ibpm::test::TempDir dir("draw-process");
  const std::vector<std::string> names = {"spine <01> & \"x\"\nline", "gr\xc3\xbc\xc3\x9f",
                                          "plain"};
  DrawProcess draw;
  for (std::size_t i = 0; i < names.size(); ++i) {
    draw.render(drawn_map(names[i]), MapFormat::dot, dir / ("far" + std::to_string(i) + ".dot"));
    draw.render(drawn_map(names[i]), MapFormat::svg, dir / ("far" + std::to_string(i) + ".svg"));
  }
  draw.finish();
  for (std::size_t i = 0; i < names.size(); ++i) {
    const std::string n = std::to_string(i);
    render_map(drawn_map(names[i]), MapFormat::dot, dir / ("near" + n + ".dot"));
    render_map(drawn_map(names[i]), MapFormat::svg, dir / ("near" + n + ".svg"));
    CHECK(sorted_lines(contents(dir / ("far" + n + ".dot"))) ==
          sorted_lines(contents(dir / ("near" + n + ".dot"))));
    CHECK(contents(dir / ("far" + n + ".svg")) == contents(dir / ("near" + n + ".svg")));
  }
}

TEST_CASE("ibpm-draw's failure comes back as the reason the map could not be drawn") {
  const ibpm::test::TempDir dir("draw-process");
  const std::string missing = dir / "no/such/dir/map.svg";
  std::string near;
  try {
    render_map(drawn_map("x"), MapFormat::svg, missing);
  } catch (const std::runtime_error& e) {
    near = e.what();
  }
  REQUIRE_FALSE(near.empty());
  DrawProcess draw;
  draw.render(drawn_map("x"), MapFormat::svg, dir / "fine.svg");
  CHECK_THROWS_WITH(
      [&] {
        draw.render(drawn_map("x"), MapFormat::svg, missing);
        draw.finish();
      }(),
      near);
  CHECK(fs::exists(dir.path() / "fine.svg"));
}

TEST_CASE("A missing ibpm-draw is named, with what to do") {
  DrawProcess draw("/nonexistent/ibpm-draw");
  const std::string reason =
      "cannot run /nonexistent/ibpm-draw: No such file or directory (ibpm-draw draws the maps: "
      "install it beside this command, or name it in IBPM_DRAW)";
  CHECK_THROWS_WITH(draw.render(drawn_map("x"), MapFormat::svg, "/tmp/never.svg"), reason);
}

TEST_CASE("An ibpm-draw that never answers is killed at the limit, reaped and named") {
  const ibpm::test::TempDir dir("draw-process");
  const std::string drawer = dir / "hung-draw";
  const std::string pid_file = dir / "hung-draw.pid";
  {
    std::ofstream script(drawer);
    script << "#!/bin/sh\necho $$ > '" << pid_file << "'\nexec sleep 60\n";
  }
  fs::permissions(drawer, fs::perms::owner_all);
  const auto start = std::chrono::steady_clock::now();
  std::string reason;
  {
    DrawProcess draw(drawer, std::chrono::milliseconds(1500));
    try {
      draw.render(drawn_map("x"), MapFormat::svg, dir / "first.svg");
      draw.render(drawn_map("y"), MapFormat::svg, dir / "second.svg");
      draw.finish();
    } catch (const std::runtime_error& e) {
      reason = e.what();
    }
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  CHECK(seconds >= 1.4);
  CHECK(seconds < 5);
  CHECK(reason.rfind(drawer + " (pid ", 0) == 0);
  CHECK(reason.find(") had not drawn every map 1.5 s after the first (-t): killed; not drawn: " +
                    dir / "first.svg" + " and 1 more") != std::string::npos);
  REQUIRE(fs::exists(pid_file));
  std::ifstream pid_text(pid_file);
  pid_t pid = 0;
  pid_text >> pid;
  REQUIRE(pid > 0);
  CHECK(::kill(pid, 0) != 0);  // killed and reaped: no such process, not even a zombie
  CHECK_FALSE(fs::exists(dir.path() / "first.svg"));
}
