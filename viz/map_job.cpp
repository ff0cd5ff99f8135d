// SPDX-License-Identifier: MIT

#include "viz/map_job.hpp"

#include <charconv>
#include <cstdint>
#include <limits>
#include <stdexcept>

namespace ibpm::viz {

namespace {

constexpr const char* kMagic = "ibpm-map-jobs";
constexpr int kVersion = 1;
// Far beyond any map (a string of 16 MiB, 16 M items in a list), so a corrupt count is refused
// before anything is allocated for it.
constexpr std::uint64_t kMaxString = std::uint64_t{1} << 24;
constexpr std::uint64_t kMaxItems = std::uint64_t{1} << 24;

class Writer {
 public:
  explicit Writer(std::string& out) : out_(out) {}
  void tag(const char* name) {
    out_ += name;
    out_ += ' ';
  }
  void end() { out_.back() = '\n'; }
  void num(std::uint64_t v) {
    out_ += std::to_string(v);
    out_ += ' ';
  }
  void inum(std::int64_t v) {
    out_ += std::to_string(v);
    out_ += ' ';
  }
  void flag(bool v) { num(v ? 1 : 0); }
  void real(double v) {
    char buf[64];
    const auto r = std::to_chars(buf, buf + sizeof buf, v);
    out_.append(buf, r.ptr);
    out_ += ' ';
  }
  void str(const std::string& s) {
    out_ += std::to_string(s.size());
    out_ += ':';
    out_ += s;
    out_ += ' ';
  }
  void strs(const std::vector<std::string>& list) {
    num(list.size());
    for (const std::string& s : list) str(s);
  }
  template <class T>
  void opt(const std::optional<T>& v) {
    if (!v) {
      tag("-");
      return;
    }
    tag("+");
    if constexpr (std::is_floating_point_v<T>)
      real(*v);
    else
      num(*v);
  }

 private:
  std::string& out_;
};

[[noreturn]] void bad(const std::string& what) {
  throw std::runtime_error("malformed map job: " + what);
}

class Reader {
 public:
  explicit Reader(std::istream& in) : in_(in) {}

  // False at the end of the stream before any byte of a token.
  bool at_end() {
    skip();
    return in_.peek() == std::char_traits<char>::eof();
  }
  std::string token(const char* what) {
    skip();
    std::string t;
    for (int c = in_.peek(); c != std::char_traits<char>::eof() && c != ' ' && c != '\n';
         c = in_.peek()) {
      t += static_cast<char>(in_.get());
      if (t.size() > 64) bad(std::string(what) + ": a token longer than 64 bytes");
    }
    if (t.empty()) bad(std::string(what) + ": the stream ends early");
    return t;
  }
  void expect(const char* name) {
    const std::string t = token(name);
    if (t != name) bad(std::string("expected '") + name + "', found '" + t + "'");
  }
  std::uint64_t num(const char* what,
                    std::uint64_t max = std::numeric_limits<std::uint64_t>::max()) {
    const std::string t = token(what);
    std::uint64_t v = 0;
    const auto r = std::from_chars(t.data(), t.data() + t.size(), v);
    if (r.ec != std::errc{} || r.ptr != t.data() + t.size())
      bad(std::string(what) + ": '" + t + "' is not a count");
    if (v > max) bad(std::string(what) + ": " + t + " is out of range");
    return v;
  }
  std::int64_t inum(const char* what) {
    const std::string t = token(what);
    std::int64_t v = 0;
    const auto r = std::from_chars(t.data(), t.data() + t.size(), v);
    if (r.ec != std::errc{} || r.ptr != t.data() + t.size())
      bad(std::string(what) + ": '" + t + "' is not a number");
    return v;
  }
  std::size_t size(const char* what) { return static_cast<std::size_t>(num(what)); }
  std::size_t items(const char* what) { return static_cast<std::size_t>(num(what, kMaxItems)); }
  bool flag(const char* what) { return num(what, 1) == 1; }
  double real(const char* what) {
    const std::string t = token(what);
    double v = 0;
    const auto r = std::from_chars(t.data(), t.data() + t.size(), v);
    if (r.ec != std::errc{} || r.ptr != t.data() + t.size())
      bad(std::string(what) + ": '" + t + "' is not a number");
    return v;
  }
  std::string str(const char* what) {
    skip();
    std::string digits;
    for (int c = in_.peek(); c >= '0' && c <= '9'; c = in_.peek()) {
      digits += static_cast<char>(in_.get());
      if (digits.size() > 12) bad(std::string(what) + ": a string length of over 12 digits");
    }
    if (digits.empty() || in_.get() != ':')
      bad(std::string(what) + ": expected a string (its length, ':' and its bytes)");
    const std::uint64_t n = std::stoull(digits);
    if (n > kMaxString) bad(std::string(what) + ": a string of " + digits + " bytes");
    std::string s(n, '\0');
    in_.read(s.data(), static_cast<std::streamsize>(n));
    if (static_cast<std::uint64_t>(in_.gcount()) != n)
      bad(std::string(what) + ": the stream ends inside a string");
    const int after = in_.peek();
    if (after != ' ' && after != '\n')
      bad(std::string(what) + ": a string longer than its length says");
    return s;
  }
  std::vector<std::string> strs(const char* what) {
    const std::size_t n = items(what);
    std::vector<std::string> list;
    for (std::size_t i = 0; i < n; ++i) list.push_back(str(what));
    return list;
  }
  template <class T>
  std::optional<T> opt(const char* what) {
    const std::string t = token(what);
    if (t == "-") return std::nullopt;
    if (t != "+") bad(std::string(what) + ": expected '-' or '+', found '" + t + "'");
    if constexpr (std::is_floating_point_v<T>)
      return real(what);
    else
      return static_cast<T>(num(what));
  }
  template <class E>
  E enumerated(const char* what, E last) {
    return static_cast<E>(num(what, static_cast<std::uint64_t>(last)));
  }

 private:
  void skip() {
    while (in_.peek() == ' ' || in_.peek() == '\n') in_.get();
  }
  std::istream& in_;
};

void write_node(Writer& w, const MapNode& n) {
  w.tag("node");
  w.str(n.id);
  w.num(static_cast<std::uint64_t>(n.kind));
  w.inum(n.rank);
  w.num(n.order);
  w.opt(n.chassis);
  w.strs(n.lines);
  w.strs(n.tooltip);
  w.str(n.url);
  w.str(n.fill);
  w.num(static_cast<std::uint64_t>(n.health));
  w.num(n.hosts);
  w.num(n.marks);
  w.end();
}

MapNode read_node(Reader& r, std::size_t chassis) {
  r.expect("node");
  MapNode n;
  n.id = r.str("node id");
  n.kind = r.enumerated("node kind", MapNodeKind::other);
  const std::int64_t rank = r.inum("node rank");
  if (rank < std::numeric_limits<int>::min() || rank > std::numeric_limits<int>::max())
    bad("node rank " + std::to_string(rank) + " is out of range");
  n.rank = static_cast<int>(rank);
  n.order = r.size("node order");
  n.chassis = r.opt<std::size_t>("node chassis");
  if (n.chassis && *n.chassis >= chassis)
    bad("node " + n.id + ": chassis " + std::to_string(*n.chassis) + " of " +
        std::to_string(chassis));
  n.lines = r.strs("node label");
  n.tooltip = r.strs("node tooltip");
  n.url = r.str("node url");
  n.fill = r.str("node fill");
  n.health = r.enumerated("node health", Health::critical);
  n.hosts = r.size("node hosts");
  n.marks = r.size("node marks");
  return n;
}

void write_edge(Writer& w, const MapEdge& e) {
  w.tag("edge");
  w.num(e.upper);
  w.num(e.lower);
  w.num(e.links.size());
  for (std::size_t l : e.links) w.num(l);
  w.opt(e.utilization);
  w.opt(e.capacity_bps);
  w.real(e.errors_s);
  w.num(e.degraded);
  w.num(static_cast<std::uint64_t>(e.congestion));
  w.str(e.label);
  w.strs(e.tooltip);
  w.str(e.url);
  w.end();
}

MapEdge read_edge(Reader& r, std::size_t nodes) {
  r.expect("edge");
  MapEdge e;
  e.upper = r.size("edge upper");
  e.lower = r.size("edge lower");
  if (e.upper >= nodes || e.lower >= nodes)
    bad("an edge between nodes " + std::to_string(e.upper) + " and " + std::to_string(e.lower) +
        " of " + std::to_string(nodes));
  const std::size_t links = r.items("edge links");
  for (std::size_t i = 0; i < links; ++i) e.links.push_back(r.size("edge link"));
  e.utilization = r.opt<double>("edge utilization");
  e.capacity_bps = r.opt<double>("edge capacity");
  e.errors_s = r.real("edge errors");
  e.degraded = r.size("edge degraded");
  e.congestion = r.enumerated("edge congestion", CongestionMark::root);
  e.label = r.str("edge label");
  e.tooltip = r.strs("edge tooltip");
  e.url = r.str("edge url");
  return e;
}

}  // namespace

std::string map_jobs_header() {
  return std::string(kMagic) + " " + std::to_string(kVersion) + "\n";
}

void append_map_job(std::string& out, const MapJob& job) {
  Writer w(out);
  const MapGraph& m = job.map;
  w.tag("job");
  w.str(job.path);
  w.tag(std::string(to_string(job.format)).c_str());
  w.end();
  w.tag("graph");
  w.str(m.title);
  w.str(m.window);
  w.str(m.up_url);
  w.flag(m.folded);
  w.num(m.hidden_aggregation_nodes);
  w.end();
  w.tag("chassis");
  w.strs(m.chassis);
  w.end();
  w.tag("ranks");
  w.num(m.ranks.size());
  for (const auto& [rank, name] : m.ranks) {
    w.inum(rank);
    w.str(name);
  }
  w.end();
  w.tag("nodes");
  w.num(m.nodes.size());
  w.end();
  for (const MapNode& n : m.nodes) write_node(w, n);
  w.tag("edges");
  w.num(m.edges.size());
  w.end();
  for (const MapEdge& e : m.edges) write_edge(w, e);
  w.tag("end");
  w.end();
}

MapJobReader::MapJobReader(std::istream& in) : in_(in) {}

bool MapJobReader::next(MapJob& job) {
  Reader r(in_);
  if (!started_) {
    if (r.at_end()) bad("no header (an empty stream)");
    const std::string magic = r.token("header");
    if (magic != kMagic)
      bad(std::string("not a stream of map jobs (it starts '") + magic + "', not '" + kMagic +
          "')");
    const std::string version = r.token("header");
    if (version != std::to_string(kVersion))
      bad("version " + version + ", this ibpm-draw reads version " + std::to_string(kVersion));
    started_ = true;
  }
  if (r.at_end()) return false;
  r.expect("job");
  job = MapJob{};
  job.path = r.str("path");
  if (job.path.empty()) bad("an empty output path");
  const std::string format = r.token("format");
  const auto parsed = parse_map_format(format);
  if (!parsed) bad("format '" + format + "'");
  job.format = *parsed;
  MapGraph& m = job.map;
  r.expect("graph");
  m.title = r.str("title");
  m.window = r.str("window");
  m.up_url = r.str("up url");
  m.folded = r.flag("folded");
  m.hidden_aggregation_nodes = r.size("hidden aggregation nodes");
  r.expect("chassis");
  m.chassis = r.strs("chassis");
  r.expect("ranks");
  const std::size_t ranks = r.items("ranks");
  for (std::size_t i = 0; i < ranks; ++i) {
    const std::int64_t rank = r.inum("rank");
    if (rank < std::numeric_limits<int>::min() || rank > std::numeric_limits<int>::max())
      bad("rank " + std::to_string(rank) + " is out of range");
    m.ranks[static_cast<int>(rank)] = r.str("rank name");
  }
  r.expect("nodes");
  // Grown one by one: a corrupt count runs out of input, not of memory.
  const std::size_t nodes = r.items("nodes");
  for (std::size_t i = 0; i < nodes; ++i) m.nodes.push_back(read_node(r, m.chassis.size()));
  r.expect("edges");
  const std::size_t edges = r.items("edges");
  for (std::size_t i = 0; i < edges; ++i) m.edges.push_back(read_edge(r, m.nodes.size()));
  r.expect("end");
  return true;
}

}  // namespace ibpm::viz
