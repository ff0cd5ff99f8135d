// SPDX-License-Identifier: MIT
// Builds a Fabric from an ibnetdiscover topology file, with a warning for each line it doubts.

#include "dump/ibnetdiscover_parser.hpp"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <optional>
#include <set>
#include <unordered_map>

#include "dump/ibnetdiscover_syntax.hpp"
#include "dump/line_reader.hpp"
#include "dump/text_scan.hpp"
#include "dump/warning_log.hpp"

namespace ibpm::dump {
namespace {

using ibnd::LineKind;

std::string node_id(char prefix, Guid guid) {
  return std::string(1, prefix) + "-" + format_guid(guid).substr(2);
}

// A unicast LID, or nullopt for 0, multicast/permissive values, and text that is not a number.
std::optional<Lid> unicast_lid(std::string_view text) {
  auto value = scan::parse_number<unsigned>(text);
  if (value && *value >= 1 && *value < 0xc000) return static_cast<Lid>(*value);
  return std::nullopt;
}

struct Speed {
  std::optional<LinkWidth> width;
  std::optional<LinkSpeed> speed;
};

// Builds the fabric from classified lines.
class Builder {
 public:
  Builder(const std::string& origin, ParsedDump& out)
      : fabric_(out.fabric), log_(origin, out.warnings, &out.incomplete) {}

  void line(std::string_view raw, std::size_t number, bool truncated, bool unterminated);
  void finish();

 private:
  struct NodeState {
    bool recorded = false;       // has a header of its own
    std::size_t first_line = 0;  // where it was first mentioned
  };
  struct Pending {  // attribute lines waiting for their node header
    std::optional<std::uint32_t> vendid, devid;
    std::optional<Guid> sysimgguid, guid, port_guid;
    std::optional<ibnd::AttributeKey> guid_key;
  };

  struct PortNames {  // what the "(...)" groups after a port number say
    std::string_view label;
    std::optional<Guid> guid;
  };
  struct OwnFields {  // "lid L lmc M" of a CA or router port
    bool has_lid = false;
    std::optional<Lid> lid;
    std::optional<std::uint8_t> lmc;
  };

  [[noreturn]] void fail(std::string_view reason) const;
  void warn(WarningKind kind, std::string_view message) { log_.add(kind, line_, message); }

  void attribute(std::string_view text);
  void header(std::string_view text);
  void port_line(std::string_view text);
  // The parts of port_line, in the order it takes them.
  PortNames port_names(const ibnd::PortLine& p, bool switch_record) const;
  void check_port_in_record(Guid guid, PortNumber port);
  // The peer's node, created from the reference when it has no record yet.
  const NodeState& peer_node(const ibnd::PortLine& p);
  // False when the cable conflicts with one already known (and is ignored).
  bool cable(PortRef local, PortRef remote);
  OwnFields own_fields(std::string_view text, PortRef port);
  // `link`: the link's width and speed, null when the cable was ignored.
  void fill_local_port(PortRef local, const PortNames& names, const OwnFields& own,
                       bool switch_record, const Speed* link);
  void fill_peer_port(PortRef remote, std::optional<Guid> remote_port_guid,
                      const ibnd::LinkTrailer& trailer, const Speed& speed, bool remote_recorded);
  std::optional<Lid> own_lid(std::string_view text, PortRef whose);
  Speed width_speed(std::string_view text);
  Node& node(Guid guid) { return *fabric_.find(guid); }
  std::string ref_name(PortRef ref) {
    return node_id(ibnd::id_prefix(node(ref.node).type), ref.node) + "[" +
           std::to_string(ref.port) + "]";
  }

  Fabric& fabric_;
  WarningLog log_;
  std::size_t line_ = 0;
  Pending pending_;
  std::optional<Guid> current_;
  NodeType current_type_ = NodeType::unknown;
  Guid current_port_guid_ = 0;
  std::unordered_map<Guid, NodeState> state_;
  std::set<PortRef> listed_;   // ports whose own record lists them
  bool unterminated_ = false;  // the line is the last one and has no line end
  std::string last_speed_text_;
  Speed last_speed_;
};

void Builder::fail(std::string_view reason) const {
  throw DumpError(log_.origin() + ":" + std::to_string(line_) + ": " + std::string(reason));
}

void Builder::line(std::string_view raw, std::size_t number, bool truncated, bool unterminated) {
  line_ = number;
  if (truncated) {
    warn(WarningKind::long_line,
         "skipped a line longer than " + std::to_string(LineReader::kMaxLine) + " bytes");
    return;
  }
  std::string_view text = scan::trim(raw);
  try {
    unterminated_ = unterminated;
    switch (ibnd::classify(text)) {
      case LineKind::blank:
      case LineKind::comment:
      case LineKind::noise:
        return;
      case LineKind::attribute:
        attribute(text);
        current_.reset();  // attributes open the next record
        return;
      case LineKind::node_header:
        header(text);
        return;
      case LineKind::port:
        port_line(text);
        return;
      case LineKind::junk:
        warn(WarningKind::junk_line, "skipped unrecognised line \"" + excerpt(text) + "\"");
        return;
    }
  } catch (const ibnd::SyntaxError& e) {
    fail(e.what());
  }
}

void Builder::attribute(std::string_view text) {
  ibnd::Attribute a = ibnd::parse_attribute(text);
  switch (a.key) {
    case ibnd::AttributeKey::vendid:
      pending_.vendid = static_cast<std::uint32_t>(a.value);
      break;
    case ibnd::AttributeKey::devid:
      pending_.devid = static_cast<std::uint32_t>(a.value);
      break;
    case ibnd::AttributeKey::sysimgguid:
      pending_.sysimgguid = a.value;
      break;
    case ibnd::AttributeKey::switchguid:
    case ibnd::AttributeKey::caguid:
    case ibnd::AttributeKey::rtguid:
      pending_.guid = a.value;
      pending_.guid_key = a.key;
      pending_.port_guid = a.port_guid;
      break;
  }
}

std::optional<Lid> Builder::own_lid(std::string_view text, PortRef whose) {
  std::optional<Lid> lid = unicast_lid(text);
  if (!lid)
    warn(WarningKind::bogus_lid, "LID \"" + excerpt(text, 20) + "\" of " + ref_name(whose) +
                                     " is not a unicast LID; recorded as absent");
  return lid;
}

Speed Builder::width_speed(std::string_view text) {
  // Nearly every line of a dump has the same "4xHDR": remember the last answer.
  if (text == last_speed_text_) return last_speed_;
  Speed out;
  if (text.empty()) return out;
  std::size_t x = text.find('x');
  if (x != std::string_view::npos) {
    out.width = parse_link_width(text.substr(0, x + 1));
    out.speed = parse_link_speed(text.substr(x + 1));
  } else if (text.starts_with("??")) {  // unknown width: "??" followed by the speed
    out.speed = parse_link_speed(text.substr(2));
  }
  // ibnetdiscover itself prints "??" / "???" for values it does not know.
  if ((!out.width || !out.speed) && text.find('?') == std::string_view::npos) {
    warn(WarningKind::link_speed, "link width/speed \"" + excerpt(text, 20) + "\" not understood");
  } else {
    last_speed_text_ = text;
    last_speed_ = out;
  }
  return out;
}

void Builder::header(std::string_view text) {
  ibnd::NodeHeader h = ibnd::parse_node_header(text);
  const Guid guid = h.id.guid;
  const std::string id = node_id(h.id.prefix, guid);
  // ibdiagnet writes a director's system image GUID after switchguid= (the node GUID follows in
  // parentheses): a known quirk, not worth a warning.
  const bool ibdiag_quirk = pending_.guid == pending_.sysimgguid && pending_.port_guid == guid;
  if (pending_.guid && *pending_.guid != guid && !ibdiag_quirk)
    warn(WarningKind::record_mismatch, "GUID " + format_guid(*pending_.guid) +
                                           " before the header differs from node id " + id +
                                           "; using the id");
  if (h.id.prefix != ibnd::id_prefix(h.type))
    warn(WarningKind::record_mismatch, std::string(to_string(h.type)) + " record has the id " + id +
                                           "; keeping the type " + std::string(to_string(h.type)));

  if (guid == 0) warn(WarningKind::incomplete, "node id " + id + " is GUID 0");
  NodeState& st = state_[guid];
  if (!fabric_.find(guid)) {
    fabric_.add_node(guid, h.type, std::string(h.description), h.port_count);
  } else if (st.recorded) {
    warn(WarningKind::incomplete, "second record for " + id + "; merged into the first");
    fabric_.add_node(guid, h.type, {}, h.port_count);
  } else {
    // Known so far only as somebody's peer: its own record is authoritative.
    Node& n = node(guid);
    if (h.port_count < n.port_count)
      warn(WarningKind::port_range, id + " has " + std::to_string(h.port_count) +
                                        " ports but a peer cables its port " +
                                        std::to_string(n.port_count));
    if (n.type == NodeType::sw && h.type != NodeType::sw)
      n.ports[0] = Port{};  // a guessed switch's management port
    n.type = h.type;
    n.description = std::string(h.description);
    fabric_.add_node(guid, h.type, {}, h.port_count);
  }
  if (st.first_line == 0) st.first_line = line_;
  st.recorded = true;

  Node& n = node(guid);
  if (pending_.vendid) n.vendor_id = *pending_.vendid;
  if (pending_.devid) n.device_id = *pending_.devid;
  if (pending_.sysimgguid) n.system_image_guid = *pending_.sysimgguid;
  current_ = guid;
  current_type_ = n.type;
  if (n.type == NodeType::sw) {
    current_port_guid_ = pending_.port_guid.value_or(guid);
    // All ports of a switch share the GUID of port 0.
    for (Port& p : n.ports)
      if (p.present) p.guid = current_port_guid_;
    Port& port0 = fabric_.port({guid, 0});
    port0.guid = current_port_guid_;
    ibnd::LidLmc ll = ibnd::find_lid_lmc(h.after_description);
    if (ll.has_lid) port0.lid = own_lid(ll.lid, {guid, 0});
    if (ll.has_lmc) port0.lmc = scan::parse_dec<std::uint8_t>(ll.lmc).value_or(0);
  }
  pending_ = {};
}

Builder::PortNames Builder::port_names(const ibnd::PortLine& p, bool switch_record) const {
  // "(...)" after the port number: CA records print the port GUID last, ibdiagnet adds a label
  // first; switch records have only the label.
  PortNames names{p.ext, std::nullopt};
  std::string_view guid_text;
  if (p.groups > 0) {
    if (switch_record) {
      names.label = p.group[0];
      if (p.groups == 2) guid_text = p.group[1];
    } else {
      guid_text = p.group[p.groups - 1];
      if (p.groups == 2) names.label = p.group[0];
    }
  }
  if (!guid_text.empty() || p.groups > (switch_record ? 1 : 0)) {
    names.guid = scan::parse_hex<Guid>(guid_text);
    if (!names.guid) fail("port GUID \"" + excerpt(guid_text, 20) + "\" is not hex");
  }
  return names;
}

void Builder::check_port_in_record(Guid guid, PortNumber port) {
  const Node& local = node(guid);
  if (port > local.port_count)
    warn(WarningKind::port_range, "port " + std::to_string(port) + " beyond the " +
                                      std::to_string(local.port_count) + " ports of the record");
}

const Builder::NodeState& Builder::peer_node(const ibnd::PortLine& p) {
  const Guid remote_guid = p.remote.guid;
  const NodeType remote_type = ibnd::type_of_id_prefix(p.remote.prefix);
  auto remote_id = [&] { return node_id(p.remote.prefix, remote_guid); };
  NodeState& rst = state_[remote_guid];
  if (const Node* r = fabric_.find(remote_guid)) {
    if (rst.recorded && r->type != remote_type && remote_type != NodeType::unknown)
      warn(WarningKind::record_mismatch,
           "peer id " + remote_id() + " names a " + std::string(to_string(r->type)));
    if (rst.recorded && p.remote_port > r->port_count)
      warn(WarningKind::port_range, "peer port " + remote_id() + "[" +
                                        std::to_string(p.remote_port) + "] beyond its " +
                                        std::to_string(r->port_count) + " ports");
  } else {
    fabric_.add_node(remote_guid, remote_type, std::string(p.remote_description), p.remote_port);
    if (remote_type == NodeType::sw) fabric_.port({remote_guid, 0}).guid = remote_guid;
    rst.first_line = line_;
  }
  if (remote_guid == 0 && fabric_.find(remote_guid) && !rst.recorded && rst.first_line == line_)
    warn(WarningKind::incomplete, "peer id " + remote_id() + " is GUID 0");
  return rst;
}

bool Builder::cable(PortRef local, PortRef remote) {
  listed_.insert(local);
  if (fabric_.connect(local, remote) != ConnectResult::conflict) return true;
  std::string why = "a port cannot be cabled to itself";
  if (auto other = fabric_.remote(local))
    why = ref_name(local) + " is already cabled to " + ref_name(*other);
  else if (auto other_end = fabric_.remote(remote))
    why = ref_name(remote) + " is already cabled to " + ref_name(*other_end);
  warn(WarningKind::link_conflict,
       "cable " + ref_name(local) + " - " + ref_name(remote) + " ignored: " + why);
  return false;
}

Builder::OwnFields Builder::own_fields(std::string_view text, PortRef port) {
  OwnFields own;
  ibnd::LidLmc ll = ibnd::find_lid_lmc(text);
  own.has_lid = ll.has_lid;
  if (own.has_lid) own.lid = own_lid(ll.lid, port);
  if (ll.has_lmc) own.lmc = scan::parse_dec<std::uint8_t>(ll.lmc);
  return own;
}

void Builder::fill_local_port(PortRef local, const PortNames& names, const OwnFields& own,
                              bool switch_record, const Speed* link) {
  Port& lp = fabric_.port(local);
  if (!names.label.empty()) lp.label = std::string(names.label);
  if (switch_record) {
    lp.guid = current_port_guid_;
  } else if (names.guid) {
    lp.guid = *names.guid ? names.guid : std::nullopt;  // GUID 0 means unknown
  }
  if (own.has_lid) lp.lid = own.lid;
  if (own.lmc) lp.lmc = *own.lmc;
  if (link) {
    lp.state = PortState::active;
    if (link->width) lp.width = link->width;
    if (link->speed) lp.speed = link->speed;
  }
}

void Builder::fill_peer_port(PortRef remote, std::optional<Guid> remote_port_guid,
                             const ibnd::LinkTrailer& trailer, const Speed& speed,
                             bool remote_recorded) {
  const Guid remote_guid = remote.node;
  const NodeType actual_remote_type = node(remote_guid).type;
  Guid remote_switch_port_guid = remote_guid;
  if (actual_remote_type == NodeType::sw) {
    if (const Port* r0 = fabric_.find_port({remote_guid, 0}); r0 && r0->guid)
      remote_switch_port_guid = *r0->guid;
  }
  Port& rp = fabric_.port(remote);
  rp.state = PortState::active;
  if (!rp.width) rp.width = speed.width;
  if (!rp.speed) rp.speed = speed.speed;
  if (!rp.guid) {
    if (actual_remote_type == NodeType::sw)
      rp.guid = remote_switch_port_guid;
    else if (remote_port_guid && *remote_port_guid)
      rp.guid = remote_port_guid;
  }
  if (!remote_recorded && trailer.has_lid) {
    if (std::optional<Lid> rlid = unicast_lid(trailer.lid)) {
      if (actual_remote_type == NodeType::sw)
        fabric_.port({remote_guid, 0}).lid = rlid;
      else
        fabric_.port(remote).lid = rlid;
    }
  }
}

void Builder::port_line(std::string_view text) {
  if (!current_) fail("port line outside a node record");
  const ibnd::PortLine p = ibnd::parse_port_line(text);
  const bool switch_record = current_type_ == NodeType::sw;
  const PortNames names = port_names(p, switch_record);
  check_port_in_record(*current_, p.port);
  const NodeState& peer = peer_node(p);
  const PortRef local{*current_, p.port};
  const PortRef remote{p.remote.guid, p.remote_port};
  const bool cabled = cable(local, remote);

  const OwnFields own = switch_record ? OwnFields{} : own_fields(p.own, local);
  const ibnd::LinkTrailer trailer = ibnd::parse_link_trailer(p.link);
  // A port line always ends with the link's width and speed: the last line without them (and
  // without a line end) is a file cut short, whose last record cannot be trusted.
  if (unterminated_ && trailer.width_speed.empty())
    fail("the file ends in the middle of this line (cut short?)");
  const Speed speed = cabled ? width_speed(trailer.width_speed) : Speed{};
  fill_local_port(local, names, own, switch_record, cabled ? &speed : nullptr);
  if (!cabled) return;
  // What the line tells about the peer fills gaps only: the peer's own record wins.
  fill_peer_port(remote, p.remote_port_guid, trailer, speed, peer.recorded);
}

void Builder::finish() {
  // A cable between two recorded nodes that one of them does not list: a record lost its lines.
  for (const Link& link : fabric_.links()) {
    for (const auto& [end, other] : {std::pair{link.a, link.b}, std::pair{link.b, link.a}}) {
      const NodeState& st = state_[end.node];
      if (!st.recorded || !state_[other.node].recorded || listed_.contains(end)) continue;
      log_.add(WarningKind::incomplete, st.first_line,
               ref_name(end) + " is cabled to " + ref_name(other) +
                   " by the other end only; its own record does not list it");
    }
  }
  for (const Node& n : fabric_.nodes()) {
    const NodeState& st = state_[n.guid];
    if (st.recorded) continue;
    log_.add(WarningKind::unrecorded_node, st.first_line,
             node_id(ibnd::id_prefix(n.type), n.guid) + " \"" + excerpt(n.description) +
                 "\" appears only as a peer; created from the reference");
  }
  log_.finish();
}

}  // namespace

ParsedDump parse_ibnetdiscover(std::istream& in, const std::string& origin) {
  ParsedDump out;
  Builder builder(origin, out);
  LineReader reader(in);
  std::string_view line;
  while (reader.next(line))
    builder.line(line, reader.line_number(), reader.truncated(), reader.unterminated());
  if (in.bad())
    throw DumpError(origin + ":" + std::to_string(reader.line_number()) + ": read error");
  builder.finish();
  return out;
}

ParsedDump parse_ibnetdiscover_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw DumpError(path.string() + ":0: cannot open: " + std::strerror(errno));
  return parse_ibnetdiscover(in, path.string());
}

}  // namespace ibpm::dump
