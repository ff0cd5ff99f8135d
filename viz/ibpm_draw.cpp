// SPDX-License-Identifier: MIT
// ibpm-draw: draws health maps with Graphviz from the map jobs on its standard input (map_job.hpp:
// the output path, its format and what the map shows), each file replaced whole. ibpm-map and
// ibpm-web, which read the RRD history, start it to draw their maps, so no executable links both
// librrd and Graphviz. It links Graphviz and never librrd.
//   ibpm-draw < jobs        (what ibpm-map and ibpm-web send, one process per run)
#include <iostream>
#include <stdexcept>

#include "plugin/cli.hpp"
#include "viz/graphviz_render.hpp"
#include "viz/map_job.hpp"

namespace {

using namespace ibpm;

std::string one_line(std::string text) {
  for (char& c : text)
    if (c == '\n' || c == '\r') c = ' ';
  return text;
}

void draw_all(std::istream& in, bool answers) {
  viz::MapJobReader reader(in);
  viz::MapJob job;
  while (reader.next(job)) {
    viz::render_map(job.map, job.format, job.path);
    if (answers) std::cout << "ok\n" << std::flush;
  }
}

}  // namespace

int main(int argc, char** argv) {
  bool answers = false;
  bool failed = false;
  const int status = plugin::run_tool(
      argc, argv,
      {.name = "ibpm-draw",
       .description =
           "Draws InfiniBand health maps with Graphviz from the map jobs on standard input (as "
           "ibpm-map and ibpm-web write them: each job an output path, its format and the map), "
           "each file replaced whole. Bad input: a one-line reason and exit 1.",
       .add_options =
           [&](CLI::App& app) {
             plugin::add_flag(app, "--answers", answers,
                              "After each map, 'ok' on standard output; on failure 'error REASON' "
                              "there (not on standard error) and exit 1 (how ibpm-map and ibpm-web "
                              "talk to it)");
           },
       .run =
           [&] {
             std::ios::sync_with_stdio(false);
             if (!answers) return draw_all(std::cin, false);
             try {
               draw_all(std::cin, true);
             } catch (const std::exception& e) {
               std::cout << "error " << one_line(e.what()) << "\n" << std::flush;
               failed = true;
             }
           }});
  return failed ? 1 : status;
}
