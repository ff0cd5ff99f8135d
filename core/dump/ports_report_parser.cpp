// SPDX-License-Identifier: MIT

#include "dump/ports_report_parser.hpp"

#include <optional>

#include "dump/line_reader.hpp"
#include "dump/text_scan.hpp"
#include "dump/warning_log.hpp"

namespace ibpm::dump {
namespace {

std::optional<NodeType> type_of(std::string_view token) {
  if (token == "CA") return NodeType::ca;
  if (token == "SW") return NodeType::sw;
  if (token == "RT") return NodeType::router;
  return std::nullopt;
}

// One end of a port line: "SW  1719 10 0x7cfe9003009ce5b0".
struct End {
  NodeType type = NodeType::unknown;
  std::string_view lid;
  PortNumber port = 0;
  Guid guid = 0;
};

struct ReportLine {
  End local;
  std::string_view width, speed;
  bool connected = false;
  End remote;
  std::string_view local_name, remote_name;
};

class Reader {
 public:
  Reader(const std::string& origin, ParsedDump& out)
      : fabric_(out.fabric), log_(origin, out.warnings) {}
  void line(std::string_view raw, std::size_t number, bool truncated);
  void finish() { log_.finish(); }

 private:
  [[noreturn]] void fail(const std::string& reason) const {
    throw DumpError(log_.origin() + ":" + std::to_string(line_) + ": " + reason);
  }
  End read_end(std::string_view& rest);
  ReportLine parse(std::string_view text);
  void add_end(const End& end, std::string_view name, bool authoritative);
  std::optional<Lid> lid(std::string_view text, bool warn_if_bogus);

  Fabric& fabric_;
  WarningLog log_;
  std::size_t line_ = 0;
};

End Reader::read_end(std::string_view& rest) {
  End end;
  std::string_view type = scan::next_token(rest);
  auto t = type_of(type);
  if (!t) fail("node type \"" + excerpt(type, 10) + "\" is not CA, SW or RT");
  end.type = *t;
  end.lid = scan::next_token(rest);
  std::string_view port = scan::next_token(rest);
  auto p = scan::parse_dec<unsigned>(port);
  if (!p || *p > 255) fail("port number \"" + excerpt(port, 10) + "\" is not in 0..255");
  end.port = static_cast<PortNumber>(*p);
  std::string_view guid = scan::next_token(rest);
  auto g = guid.starts_with("0x") ? scan::parse_hex<Guid>(guid) : std::nullopt;
  if (!g) fail("port GUID \"" + excerpt(guid, 20) + "\" is not 0x-prefixed hex");
  end.guid = *g;
  return end;
}

ReportLine Reader::parse(std::string_view text) {
  ReportLine out;
  std::string_view rest = text;
  out.local = read_end(rest);
  out.width = scan::next_token(rest);
  out.speed = scan::next_token(rest);
  rest = scan::trim(rest);
  if (rest.starts_with("- ")) {
    rest.remove_prefix(2);
    out.connected = true;
    out.remote = read_end(rest);
    rest = scan::trim(rest);
    if (!rest.starts_with("( '") || !rest.ends_with("' )") || rest.size() < 6)
      fail("names are not in the form ( 'local' - 'remote' )");
    std::string_view inner = rest.substr(3, rest.size() - 6);
    std::size_t split = inner.find("' - '");
    if (split == std::string_view::npos) fail("names are not in the form ( 'local' - 'remote' )");
    out.local_name = inner.substr(0, split);
    out.remote_name = inner.substr(split + 5);
  } else {
    if (rest.size() < 2 || rest.front() != '\'' || rest.back() != '\'')
      fail("port without a peer has no quoted name");
    out.local_name = rest.substr(1, rest.size() - 2);
  }
  return out;
}

std::optional<Lid> Reader::lid(std::string_view text, bool warn_if_bogus) {
  auto value = scan::parse_number<unsigned>(text);
  if (value && *value >= 1 && *value < 0xc000) return static_cast<Lid>(*value);
  if (warn_if_bogus)
    log_.add(WarningKind::bogus_lid, line_,
             "LID \"" + excerpt(text, 20) + "\" is not a unicast LID; recorded as absent");
  return std::nullopt;
}

void Reader::add_end(const End& end, std::string_view name, bool authoritative) {
  if (Node* n = fabric_.find(end.guid)) {
    if (n->type != end.type)
      log_.add(WarningKind::record_mismatch, line_,
               format_guid(end.guid) + " is named both " + std::string(to_string(n->type)) +
                   " and " + std::string(to_string(end.type)) + "; keeping the first");
    if (authoritative) n->description = std::string(name);
  } else {
    fabric_.add_node(end.guid, end.type, std::string(name), end.port);
  }
  const bool is_switch = fabric_.find(end.guid)->type == NodeType::sw;
  const std::optional<Lid> l = lid(end.lid, authoritative);
  Port& p = fabric_.port({end.guid, end.port});
  p.guid = end.guid;
  if (!is_switch && (authoritative || !p.lid)) p.lid = l;
  if (is_switch) {
    Port& p0 = fabric_.port({end.guid, 0});
    p0.guid = end.guid;
    if (authoritative || !p0.lid) p0.lid = l;
  }
}

void Reader::line(std::string_view raw, std::size_t number, bool truncated) {
  line_ = number;
  if (truncated) {
    log_.add(WarningKind::long_line, line_, "skipped an over-long line");
    return;
  }
  std::string_view text = scan::trim(raw);
  if (text.empty()) return;
  if (!looks_like_ports_report(text)) {
    log_.add(WarningKind::junk_line, line_, "skipped unrecognised line \"" + excerpt(text) + "\"");
    return;
  }
  const ReportLine r = parse(text);
  if (r.local.port == 0 || (r.connected && r.remote.port == 0)) fail("port 0 cannot be cabled");
  add_end(r.local, r.local_name, true);
  const PortRef local{r.local.guid, r.local.port};
  if (!r.connected) {
    Port& p = fabric_.port(local);
    if (!p.link) p.state = PortState::down;
    return;
  }
  add_end(r.remote, r.remote_name, false);
  const PortRef remote{r.remote.guid, r.remote.port};
  if (fabric_.connect(local, remote) == ConnectResult::conflict) {
    log_.add(WarningKind::link_conflict, line_,
             "cable " + port_name(fabric_, local, nullptr) + " - " +
                 port_name(fabric_, remote, nullptr) +
                 " ignored: a port is already cabled elsewhere");
    return;
  }
  const auto width = parse_link_width(r.width);
  const auto speed = parse_link_speed(r.speed);
  if ((!width || !speed) && r.width.find('?') == std::string_view::npos &&
      r.speed.find('?') == std::string_view::npos)
    log_.add(WarningKind::link_speed, line_,
             "link width/speed \"" + excerpt(r.width, 8) + " " + excerpt(r.speed, 8) +
                 "\" not understood");
  {
    Port& lp = fabric_.port(local);
    lp.state = PortState::active;
    if (width) lp.width = width;
    if (speed) lp.speed = speed;
  }
  Port& rp = fabric_.port(remote);
  rp.state = PortState::active;
  if (!rp.width) rp.width = width;
  if (!rp.speed) rp.speed = speed;
}

}  // namespace

bool looks_like_ports_report(std::string_view line) {
  std::string_view rest = scan::trim(line);
  if (!type_of(scan::next_token(rest))) return false;
  if (!scan::parse_dec<unsigned>(scan::next_token(rest))) return false;
  if (!scan::parse_dec<unsigned>(scan::next_token(rest))) return false;
  return scan::next_token(rest).starts_with("0x");
}

ParsedDump parse_ports_report(std::istream& in, const std::string& origin) {
  ParsedDump out;
  Reader reader(origin, out);
  LineReader lines(in);
  std::string_view line;
  while (lines.next(line)) reader.line(line, lines.line_number(), lines.truncated());
  if (in.bad())
    throw DumpError(origin + ":" + std::to_string(lines.line_number()) + ": read error");
  reader.finish();
  return out;
}

}  // namespace ibpm::dump
