// SPDX-License-Identifier: MIT
// The maps drawn by ibpm-draw, one process per run: ibpm-map and ibpm-web read the RRD history
// (librrd) and must not link Graphviz, so they send each map (map_job.hpp) to ibpm-draw over a
// socket and read one answer a map ("ok", or "error REASON"). Maps are sent as they are built, so
// the next one is built while ibpm-draw lays out the last; finish() waits for all of them.
#pragma once

#include <sys/types.h>

#include <cstddef>
#include <string>

#include "viz/map_renderer.hpp"

namespace ibpm::viz {

// The ibpm-draw to run: $IBPM_DRAW when set, else ibpm-draw in the calling executable's folder.
std::string draw_program();

class DrawProcess final : public MapRenderer {
 public:
  // Nothing starts before the first render().
  explicit DrawProcess(std::string program = draw_program());
  ~DrawProcess() override;
  DrawProcess(const DrawProcess&) = delete;
  DrawProcess& operator=(const DrawProcess&) = delete;

  void render(const MapGraph& map, MapFormat format, const std::string& path) override;
  void finish() override;

 private:
  void start();
  void send(const std::string& data);
  // Reads the answers that have arrived (all pending ones when `wait`); throws on an error.
  void collect(bool wait);
  [[noreturn]] void fail_exited();

  std::string program_;
  pid_t pid_ = -1;
  int fd_ = -1;
  std::size_t pending_ = 0;
  std::string answers_;  // bytes of an answer not yet ended by '\n'
};

}  // namespace ibpm::viz
