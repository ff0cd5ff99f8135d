// SPDX-License-Identifier: MIT
// The map jobs ibpm-draw reads: every field comes back as written, whatever the fabric names hold,
// and a malformed or cut stream is refused with a reason, never misread.
#include "viz/map_job.hpp"

#include <catch2/catch.hpp>
#include <limits>
#include <optional>
#include <sstream>
#include <stdexcept>

using namespace ibpm;
using namespace ibpm::viz;

namespace {

// Quotes, newlines, markup, a framing look-alike, a length look-alike, non-ASCII, invalid UTF-8,
// a NUL, Graphviz's escapes.
const std::vector<std::string> kNasty = {
    "",
    "plain",
    "\"quoted\" 'single'",
    "line one\nline two\r\n",
    "<script>alert(1)</script> & &amp; <b>",
    "end\nnode 3:abc edge ",
    "12:not a length",
    "gr\xc3\xbc\xc3\x9f \xe2\x9c\x93 \xf0\x9f\x94\xa5",
    std::string("bad \xff\xfe utf-8 \xc3"),
    std::string("nul\0inside", 10),
    "\\N \\G \\E \\\\",
    "   leading and trailing spaces   ",
};

MapJob every_field_job(const std::string& s, MapFormat format) {
  MapJob job;
  job.path = "/tmp/out dir/" + s + ".svg";
  job.format = format;
  MapGraph& m = job.map;
  m.title = s;
  m.window = "window " + s;
  m.up_url = "../" + s;
  m.folded = true;
  m.hidden_aggregation_nodes = 7;
  m.chassis = {s, "chassis two"};
  m.ranks = {{0, "hosts"}, {1, s}, {-3, "below"}, {std::numeric_limits<int>::max(), "top"}};
  MapNode a;
  a.id = "n0x" + s;
  a.kind = MapNodeKind::unit;
  a.rank = -2;
  a.order = std::numeric_limits<std::size_t>::max();
  a.chassis = 1;
  a.lines = {s, "", "second"};
  a.tooltip = {"tip " + s};
  a.url = "nodes/" + s + ".html";
  a.fill = "#a0b1c2";
  a.health = Health::critical;
  a.hosts = 18;
  a.marks = 3;
  MapNode b;
  b.id = "h0x2";
  b.kind = MapNodeKind::host_group;
  b.health = Health::warning;
  m.nodes = {a, b};
  MapEdge e;
  e.upper = 0;
  e.lower = 1;
  e.links = {4, 0, 123456789};
  e.utilization = 0.1 + 0.2;  // not exactly representable in decimal: must come back exact
  e.capacity_bps = 4.0e11 / 3;
  e.errors_s = 1e-300;
  e.degraded = 2;
  e.congestion = CongestionMark::root;
  e.label = s;
  e.tooltip = {s, s + s};
  e.url = "links/" + s;
  MapEdge f;
  f.upper = 1;
  f.lower = 0;
  f.congestion = CongestionMark::victim;
  m.edges = {e, f};
  return job;
}

std::vector<MapJob> read_all(const std::string& text) {
  std::istringstream in(text);
  MapJobReader reader(in);
  std::vector<MapJob> jobs;
  MapJob job;
  while (reader.next(job)) jobs.push_back(job);
  return jobs;
}

std::string stream_of(const std::vector<MapJob>& jobs) {
  std::string text = map_jobs_header();
  for (const MapJob& job : jobs) append_map_job(text, job);
  return text;
}

}  // namespace

TEST_CASE("Map jobs come back field for field - whatever the strings hold") {
  std::vector<MapJob> jobs;
  const MapFormat formats[] = {MapFormat::svg, MapFormat::png, MapFormat::pdf, MapFormat::dot};
  for (std::size_t i = 0; i < kNasty.size(); ++i)
    jobs.push_back(every_field_job(kNasty[i], formats[i % 4]));
  jobs.push_back(MapJob{"empty.dot", MapFormat::dot, MapGraph{}});
  const std::vector<MapJob> back = read_all(stream_of(jobs));
  REQUIRE(back.size() == jobs.size());
  for (std::size_t i = 0; i < jobs.size(); ++i) {
    INFO("job " << i);
    CHECK(back[i] == jobs[i]);
  }
  // The optionals and a negative rank, checked by name (== could hide a shared default).
  CHECK(back[0].map.edges[1].utilization == std::nullopt);
  CHECK(*back[0].map.edges[0].utilization == 0.1 + 0.2);
  CHECK(back[0].map.nodes[1].chassis == std::nullopt);
  CHECK(back[0].map.nodes[0].rank == -2);
}

TEST_CASE("A stream cut anywhere is refused - only whole jobs are read") {
  const std::vector<MapJob> jobs = {every_field_job(kNasty[3], MapFormat::svg),
                                    every_field_job(kNasty[7], MapFormat::png)};
  const std::string text = stream_of(jobs);
  const std::size_t first_end = map_jobs_header().size() + [&] {
    std::string one;
    append_map_job(one, jobs[0]);
    return one.size();
  }();
  // Whole: the header, the first job, both (each with or without its closing newline).
  const std::size_t ends[] = {map_jobs_header().size(), first_end, text.size()};
  for (std::size_t cut = 0; cut <= text.size(); ++cut) {
    INFO("cut at " << cut);
    const std::string prefix = text.substr(0, cut);
    std::optional<std::size_t> whole;
    for (std::size_t jobs = 0; jobs < 3; ++jobs)
      if (cut == ends[jobs] || cut + 1 == ends[jobs]) whole = jobs;
    if (whole) {
      CHECK(read_all(prefix).size() == *whole);
    } else {
      CHECK_THROWS_AS(read_all(prefix), std::runtime_error);
    }
  }
}

TEST_CASE("A malformed stream names what is wrong") {
  const auto reason = [](const std::string& text) {
    try {
      read_all(text);
    } catch (const std::runtime_error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  CHECK(reason("") == "malformed map job: no header (an empty stream)");
  CHECK(reason("digraph { a -> b }\n") ==
        "malformed map job: not a stream of map jobs (it starts 'digraph', not 'ibpm-map-jobs')");
  CHECK(reason("garbage\n") ==
        "malformed map job: not a stream of map jobs (it starts 'garbage', not 'ibpm-map-jobs')");
  CHECK(reason("ibpm-map-jobs 2\n") ==
        "malformed map job: version 2, this ibpm-draw reads version 1");
  const std::string header = map_jobs_header();
  CHECK(reason(header + "job 5:a.svg gif\n") == "malformed map job: format 'gif'");
  CHECK(reason(header + "job 0: svg\n") == "malformed map job: an empty output path");
  CHECK(reason(header + "job 99:a.svg svg\n") ==
        "malformed map job: path: the stream ends inside a string");
  CHECK(reason(header + "job 3:a.svg svg\n") ==
        "malformed map job: path: a string longer than its length says");
  CHECK(reason(header + "job 999999999999:x") ==
        "malformed map job: path: a string of 999999999999 bytes");
  // An edge to a node that is not there, a chassis that is not listed, a count far too large.
  MapJob job = every_field_job("x", MapFormat::svg);
  job.map.edges[0].lower = 2;
  CHECK(reason(stream_of({job})) == "malformed map job: an edge between nodes 0 and 2 of 2");
  job = every_field_job("x", MapFormat::svg);
  job.map.nodes[0].chassis = 2;
  CHECK(reason(stream_of({job})) == "malformed map job: node n0xx: chassis 2 of 2");
  CHECK(reason(header + "job 5:a.svg svg\ngraph 0: 0: 0: 0 0\nchassis 99999999999\n") ==
        "malformed map job: chassis: 99999999999 is out of range");
}
