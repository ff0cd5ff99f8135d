// SPDX-License-Identifier: MIT
// The maps drawn by ibpm-draw, one process per run: ibpm-map and ibpm-web read the RRD history
// (librrd) and must not link Graphviz, so they send each map (map_job.hpp) to ibpm-draw over a
// socket and read one answer a map ("ok", or "error REASON"). Maps are sent as they are built, so
// the next one is built while ibpm-draw lays out the last; finish() waits for all of them. Every
// wait is bounded: an ibpm-draw that has not drawn them all in time (a layout that never ends, a
// hung program) is killed, reaped and named.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <deque>
#include <string>

#include "viz/map_renderer.hpp"

namespace ibpm::viz {

// The ibpm-draw to run: $IBPM_DRAW when set, else ibpm-draw in the calling executable's folder.
std::string draw_program();

class DrawProcess final : public MapRenderer {
 public:
  // Nothing starts before the first render(). Every map must be drawn within `limit` (the tools'
  // -t) of the first render(): past it ibpm-draw is killed and reaped, and the render() or
  // finish() waiting throws a one-line reason naming it and the map it had not drawn.
  explicit DrawProcess(std::string program = draw_program(),
                       std::chrono::milliseconds limit = std::chrono::seconds(300));
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
  // Waits until the socket is ready for `events`; returns the events that are. Past the deadline
  // ibpm-draw is killed and this throws.
  short wait_for(short events);
  // Closes the socket and reaps ibpm-draw: at once when `kill_now`, else once it has read the end
  // of its input and exited, or killed at the deadline. Returns its wait status.
  int stop(bool kill_now);
  [[noreturn]] void fail_exited();
  [[noreturn]] void fail_late();

  std::string program_;
  std::chrono::milliseconds limit_;
  std::chrono::steady_clock::time_point deadline_{};  // set by start()
  pid_t pid_ = -1;
  int fd_ = -1;
  std::deque<std::string> pending_;  // the maps sent and not yet answered, oldest first
  std::string answers_;              // bytes of an answer not yet ended by '\n'
};

}  // namespace ibpm::viz
