// SPDX-License-Identifier: MIT

#include "dump/ibnetdiscover_syntax.hpp"

#include <array>
#include <string>

#include "dump/text_scan.hpp"

namespace ibpm::dump::ibnd {
namespace {

using scan::is_digit;
using scan::is_space;
using scan::next_token;
using scan::trim_left;

struct Keyword {
  std::string_view text;
  NodeType type;
};
constexpr std::array<Keyword, 4> kHeaderKeywords{{{"Switch", NodeType::sw},
                                                  {"Ca", NodeType::ca},
                                                  {"Hca", NodeType::ca},
                                                  {"Rt", NodeType::router}}};

struct AttributeName {
  std::string_view text;
  AttributeKey key;
};
constexpr std::array<AttributeName, 6> kAttributes{{{"vendid=", AttributeKey::vendid},
                                                    {"devid=", AttributeKey::devid},
                                                    {"sysimgguid=", AttributeKey::sysimgguid},
                                                    {"switchguid=", AttributeKey::switchguid},
                                                    {"caguid=", AttributeKey::caguid},
                                                    {"rtguid=", AttributeKey::rtguid}}};

std::string quoted(std::string_view text) {
  std::string out = "\"";
  for (char c : text.substr(0, 40)) {
    unsigned char u = static_cast<unsigned char>(c);
    out += (u < 0x20 || u == 0x7f) ? '?' : c;
  }
  if (text.size() > 40) out += "...";
  return out + "\"";
}

// The header keyword the line starts with, if what follows is "<digits> <ws> \"".
const Keyword* header_keyword(std::string_view line) {
  for (const Keyword& k : kHeaderKeywords) {
    if (!line.starts_with(k.text)) continue;
    std::string_view rest = trim_left(line.substr(k.text.size()));
    std::size_t n = 0;
    while (n < rest.size() && is_digit(rest[n])) ++n;
    if (n == 0) continue;
    rest = trim_left(rest.substr(n));
    if (!rest.empty() && rest.front() == '"') return &k;
  }
  return nullptr;
}

// Skips "(...)" groups and "[ext N]" after a port number; returns the position after them, or
// npos if a group is not closed.
std::size_t skip_port_suffixes(std::string_view line, std::size_t pos) {
  for (;;) {
    if (pos < line.size() && line[pos] == '(') {
      std::size_t close = line.find(')', pos);
      if (close == std::string_view::npos) return close;
      pos = close + 1;
    } else if (line.substr(pos).starts_with("[ext ")) {
      std::size_t close = line.find(']', pos);
      if (close == std::string_view::npos) return close;
      pos = close + 1;
    } else {
      return pos;
    }
  }
}

bool looks_like_port_line(std::string_view line) {
  std::size_t close = line.find(']');
  if (close == std::string_view::npos) return false;
  if (line.substr(0, close).find('"') != std::string_view::npos) return false;
  std::size_t pos = skip_port_suffixes(line, close + 1);
  if (pos == std::string_view::npos) return false;
  while (pos < line.size() && is_space(line[pos])) ++pos;
  return pos < line.size() && line[pos] == '"';
}

NodeId parse_node_id(std::string_view id) {
  NodeId out;
  if (id.size() >= 3 && id[1] == '-' &&
      (id[0] == 'S' || id[0] == 'H' || id[0] == 'R' || id[0] == '?')) {
    if (auto guid = scan::parse_hex<Guid>(id.substr(2))) {
      out.prefix = id[0];
      out.guid = *guid;
      return out;
    }
  }
  throw SyntaxError("node id " + quoted(id) + " has no readable GUID");
}

// Reads "\"id\"" at pos; pos is left after the closing quote.
NodeId read_quoted_id(std::string_view line, std::size_t& pos) {
  std::size_t close = line.find('"', pos + 1);
  if (close == std::string_view::npos) throw SyntaxError("node id has no closing quote");
  NodeId id = parse_node_id(line.substr(pos + 1, close - pos - 1));
  pos = close + 1;
  return id;
}

PortNumber read_port_number(std::string_view text, const char* what) {
  auto n = scan::parse_dec<unsigned>(text);
  if (!n) throw SyntaxError(std::string(what) + " " + quoted(text) + " is not a number");
  if (*n > 255)
    throw SyntaxError(std::string(what) + " " + std::to_string(*n) + " is more than 255");
  if (*n == 0) throw SyntaxError(std::string(what) + " is 0, which cannot be cabled");
  return static_cast<PortNumber>(*n);
}

bool looks_like_width_speed(std::string_view token) {
  if (token.empty() || token.find('=') != std::string_view::npos) return false;
  return token.front() == '?' ||
         (is_digit(token.front()) && token.find('x') != std::string_view::npos);
}

}  // namespace

LineKind classify(std::string_view line) {
  if (line.empty()) return LineKind::blank;
  switch (line.front()) {
    case '#':
      return LineKind::comment;
    case '[':
      return looks_like_port_line(line) ? LineKind::port : LineKind::junk;
    default:
      break;
  }
  for (const AttributeName& a : kAttributes)
    if (line.starts_with(a.text)) return LineKind::attribute;
  if (header_keyword(line)) return LineKind::node_header;
  if (line == "Non-Chassis Nodes" || line.starts_with("Chassis ") || line.starts_with("Hostname: "))
    return LineKind::noise;
  return LineKind::junk;
}

Attribute parse_attribute(std::string_view line) {
  Attribute out;
  for (const AttributeName& a : kAttributes) {
    if (!line.starts_with(a.text)) continue;
    out.key = a.key;
    std::string_view rest = line.substr(a.text.size());
    std::size_t n = 0;
    while (n < rest.size() && !is_space(rest[n]) && rest[n] != '(' && rest[n] != '#') ++n;
    std::string_view value = rest.substr(0, n);
    auto number = scan::parse_hex<std::uint64_t>(value);
    if (!number) throw SyntaxError(std::string(a.text) + " value " + quoted(value) + " is not hex");
    bool narrow = a.key == AttributeKey::vendid || a.key == AttributeKey::devid;
    if (narrow && *number > 0xffffffffu)
      throw SyntaxError(std::string(a.text) + " value " + quoted(value) + " is too large");
    out.value = *number;
    rest.remove_prefix(n);
    if (a.key == AttributeKey::switchguid && !rest.empty() && rest.front() == '(') {
      std::size_t close = rest.find(')');
      if (close == std::string_view::npos) throw SyntaxError("switchguid= port GUID is not closed");
      auto port_guid = scan::parse_hex<Guid>(rest.substr(1, close - 1));
      if (!port_guid)
        throw SyntaxError("switchguid= port GUID " + quoted(rest.substr(1, close - 1)) +
                          " is not hex");
      out.port_guid = *port_guid;
    }
    return out;
  }
  throw SyntaxError("not an attribute line");
}

namespace {

// Splits text at its first and last '"': descriptions may hold '#' and '"' themselves, so a
// quoted description runs to the last quote. One quote only: everything after it is inside.
struct QuotedSplit {
  std::string_view before, inside, after;
};
QuotedSplit split_at_outer_quotes(std::string_view text) {
  std::size_t first = text.find('"');
  std::size_t last = text.rfind('"');
  if (first == std::string_view::npos) return {text, {}, {}};
  if (last == first) return {text.substr(0, first), text.substr(first + 1), {}};
  return {text.substr(0, first), text.substr(first + 1, last - first - 1), text.substr(last + 1)};
}

}  // namespace

NodeHeader parse_node_header(std::string_view line) {
  const Keyword* k = header_keyword(line);
  if (!k) throw SyntaxError("not a node header");
  NodeHeader out;
  out.type = k->type;
  std::string_view rest = trim_left(line.substr(k->text.size()));
  std::size_t n = 0;
  while (n < rest.size() && is_digit(rest[n])) ++n;
  auto ports = scan::parse_dec<int>(rest.substr(0, n));
  if (!ports || *ports > 255)
    throw SyntaxError("port count " + quoted(rest.substr(0, n)) + " is not in 0..255");
  out.port_count = *ports;
  std::size_t pos = line.find('"');
  out.id = read_quoted_id(line, pos);
  std::size_t hash = line.find('#', pos);
  if (hash == std::string_view::npos) return out;
  std::string_view comment = line.substr(hash + 1);
  std::size_t open = 0;
  while (open < comment.size() && is_space(comment[open])) ++open;
  if (open >= comment.size() || comment[open] != '"') {
    out.after_description = comment;
    return out;
  }
  QuotedSplit split = split_at_outer_quotes(comment);
  out.has_description = true;
  out.description = split.inside;
  out.after_description = split.after;
  return out;
}

PortLine parse_port_line(std::string_view line) {
  PortLine out;
  std::size_t close = line.find(']');
  if (line.empty() || line.front() != '[' || close == std::string_view::npos)
    throw SyntaxError("not a port line");
  out.port = read_port_number(line.substr(1, close - 1), "port number");
  std::size_t pos = close + 1;
  for (;;) {
    if (pos < line.size() && line[pos] == '(') {
      std::size_t end = line.find(')', pos);
      if (end == std::string_view::npos)
        throw SyntaxError("\"(\" after the port number is not closed");
      if (out.groups == 2) throw SyntaxError("more than two \"(...)\" after the port number");
      out.group[out.groups++] = line.substr(pos + 1, end - pos - 1);
      pos = end + 1;
    } else if (line.substr(pos).starts_with("[ext ")) {
      std::size_t end = line.find(']', pos);
      if (end == std::string_view::npos)
        throw SyntaxError("\"[ext\" after the port number is not closed");
      out.ext = scan::trim(line.substr(pos + 5, end - pos - 5));
      pos = end + 1;
    } else {
      break;
    }
  }
  while (pos < line.size() && is_space(line[pos])) ++pos;
  if (pos >= line.size() || line[pos] != '"') throw SyntaxError("port line has no remote node id");
  out.remote = read_quoted_id(line, pos);
  if (pos >= line.size() || line[pos] != '[')
    throw SyntaxError("remote node id is not followed by [port]");
  std::size_t rclose = line.find(']', pos);
  if (rclose == std::string_view::npos) throw SyntaxError("remote port number is not closed");
  out.remote_port = read_port_number(line.substr(pos + 1, rclose - pos - 1), "remote port number");
  pos = rclose + 1;
  // Up to '#': "[ext N]" and "(remote port guid)".
  while (pos < line.size() && line[pos] != '#') {
    if (line[pos] == '(') {
      std::size_t end = line.find(')', pos);
      if (end == std::string_view::npos) throw SyntaxError("remote port GUID is not closed");
      std::string_view text = line.substr(pos + 1, end - pos - 1);
      auto guid = scan::parse_hex<Guid>(text);
      if (!guid) throw SyntaxError("remote port GUID " + quoted(text) + " is not hex");
      out.remote_port_guid = *guid;
      pos = end + 1;
    } else if (line.substr(pos).starts_with("[ext ")) {
      std::size_t end = line.find(']', pos);
      pos = end == std::string_view::npos ? line.size() : end + 1;
    } else {
      ++pos;
    }
  }
  if (pos >= line.size()) return out;
  out.has_trailer = true;
  std::string_view trailer = line.substr(pos + 1);
  std::size_t first = trailer.find('"');
  if (first == std::string_view::npos) {
    out.link = trailer;
    return out;
  }
  QuotedSplit split = split_at_outer_quotes(trailer);
  out.own = split.before;
  out.has_remote_description = true;
  out.remote_description = split.inside;
  out.link = split.after;
  return out;
}

LidLmc find_lid_lmc(std::string_view text) {
  LidLmc out;
  while (!text.empty()) {
    std::string_view token = next_token(text);
    if (token == "lid" && !out.has_lid) {
      out.has_lid = true;
      std::string_view peek = text;
      std::string_view value = next_token(peek);
      if (value != "lmc") {
        out.lid = value;
        text = peek;
      }
    } else if (token == "lmc" && !out.has_lmc) {
      out.has_lmc = true;
      out.lmc = next_token(text);
    }
  }
  return out;
}

LinkTrailer parse_link_trailer(std::string_view text) {
  LinkTrailer out;
  while (!text.empty()) {
    std::string_view token = next_token(text);
    if (token == "lid" && !out.has_lid) {
      out.has_lid = true;
      std::string_view peek = text;
      std::string_view value = next_token(peek);
      if (!looks_like_width_speed(value) || value.starts_with("0x")) {
        out.lid = value;
        text = peek;
      }
    } else if (out.width_speed.empty() && looks_like_width_speed(token)) {
      out.width_speed = token;
    }
  }
  return out;
}

NodeType type_of_id_prefix(char prefix) {
  switch (prefix) {
    case 'S':
      return NodeType::sw;
    case 'H':
      return NodeType::ca;
    case 'R':
      return NodeType::router;
    default:
      return NodeType::unknown;
  }
}

char id_prefix(NodeType type) {
  switch (type) {
    case NodeType::sw:
      return 'S';
    case NodeType::router:
      return 'R';
    case NodeType::ca:
    case NodeType::unknown:
      break;
  }
  return 'H';
}

}  // namespace ibpm::dump::ibnd
