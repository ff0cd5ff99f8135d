// SPDX-License-Identifier: MIT
// A map to draw, as the commands that read the RRD history send it to ibpm-draw over a pipe: the
// output path, its format and the MapGraph. The stream is text in a versioned framing: it starts
// with "ibpm-map-jobs 1" and each value is a token; every string (fabric names, tooltips, paths)
// travels as its byte count, ':' and its bytes, untouched, so no name (quotes, newlines, '<>&',
// invalid UTF-8) can break the framing or come out different.
#pragma once

#include <istream>
#include <string>

#include "viz/map_format.hpp"
#include "viz/map_graph.hpp"

namespace ibpm::viz {

struct MapJob {
  std::string path;
  MapFormat format = MapFormat::svg;
  MapGraph map;
  bool operator==(const MapJob&) const = default;
};

// The header the stream starts with, once.
std::string map_jobs_header();

// The job, framed, appended to `out`.
void append_map_job(std::string& out, const MapJob& job);

// Reads the header, then one job at a time. Throws std::runtime_error with a one-line reason on
// anything malformed (a wrong version, a truncated value, an index beyond the lists).
class MapJobReader {
 public:
  explicit MapJobReader(std::istream& in);
  // The next job; false at the end of the stream (after a whole job).
  bool next(MapJob& job);

 private:
  std::istream& in_;
  bool started_ = false;
};

}  // namespace ibpm::viz
