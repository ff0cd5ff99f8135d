// SPDX-License-Identifier: MIT

#include "delegation/delegation_file.hpp"

#include <charconv>
#include <fstream>
#include <stdexcept>
#include <string_view>

#include "base/input_file.hpp"
#include "delegation/port_list.hpp"
#include "delegation/shard_spec.hpp"
#include "poll/target.hpp"

namespace ibpm::delegation {
namespace {

// A line's problem; the reader adds PATH:LINE.
struct LineError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }

struct Token {
  std::string text;
  bool quoted = false;  // a quoted token is always a name, never a keyword
};

std::vector<Token> tokens_of(std::string_view line) {
  std::vector<Token> tokens;
  std::size_t i = 0;
  while (true) {
    while (i < line.size() && is_space(line[i])) ++i;
    if (i == line.size() || line[i] == '#') return tokens;
    if (line[i] == '"') {
      const std::size_t close = line.find('"', i + 1);
      if (close == std::string_view::npos) throw LineError("unterminated quote");
      tokens.push_back({std::string(line.substr(i + 1, close - i - 1)), true});
      i = close + 1;
      if (i < line.size() && !is_space(line[i]) && line[i] != '#')
        throw LineError("a space must follow the closing quote of \"" + tokens.back().text + "\"");
    } else {
      const std::size_t start = i;
      while (i < line.size() && !is_space(line[i]) && line[i] != '#' && line[i] != '"') ++i;
      if (i < line.size() && line[i] == '"')
        throw LineError("a quote inside '" + std::string(line.substr(start, i - start + 1)) +
                        "': quote the whole name");
      tokens.push_back({std::string(line.substr(start, i - start)), false});
    }
  }
}

bool is_keyword(const Token& token, std::string_view keyword) {
  return !token.quoted && token.text == keyword;
}

unsigned parse_shard_number(const Token& token) {
  unsigned value = 0;
  const std::string& t = token.text;
  const auto [end, error] = std::from_chars(t.data(), t.data() + t.size(), value);
  if (t.empty() || error != std::errc() || end != t.data() + t.size() || value < 1 ||
      value > max_shard_count)
    throw LineError("bad shard number '" + t + "' (shards are numbered 1.." +
                    std::to_string(max_shard_count) + ")");
  return value;
}

std::string quoted(const std::string& text) { return "'" + text + "'"; }

// Reads statements one line at a time, keeping the line of everything that a later line
// could conflict with.
class Reader {
 public:
  Reader(const Fabric& fabric, const NodeNameMap* names) : fabric_(fabric), names_(names) {}

  void read(const std::vector<Token>& tokens, unsigned line) {
    const Token& keyword = tokens.front();
    if (is_keyword(keyword, "shards")) return read_shards(tokens, line);
    if (is_keyword(keyword, "collector")) return read_collector(tokens, line);
    if (is_keyword(keyword, "pin")) return read_pin(tokens, line);
    throw LineError("unknown statement " + quoted(keyword.text) +
                    " (expected shards, collector or pin)");
  }

  // Shard numbers checked against a "shards" line that may come after them: {line, reason}.
  std::optional<std::pair<unsigned, std::string>> shard_beyond_count() const {
    if (!file_.shards) return std::nullopt;
    for (const auto& [line, shard] : shard_lines_)
      if (shard > *file_.shards)
        return std::pair{line, "shard " + std::to_string(shard) + " is beyond the " +
                                   std::to_string(*file_.shards) + " shards of this file (line " +
                                   std::to_string(shards_line_) + ")"};
    return std::nullopt;
  }

  DelegationFile take() { return std::move(file_); }

 private:
  void read_shards(const std::vector<Token>& tokens, unsigned line) {
    if (tokens.size() != 2) throw LineError("expected: shards N");
    if (file_.shards)
      throw LineError("a second shards line (the first is line " + std::to_string(shards_line_) +
                      ")");
    try {
      file_.shards = parse_shard_number(tokens[1]);
    } catch (const LineError&) {
      throw LineError("bad number of shards '" + tokens[1].text + "' (1.." +
                      std::to_string(max_shard_count) + ")");
    }
    shards_line_ = line;
  }

  void read_collector(const std::vector<Token>& tokens, unsigned line) {
    if (tokens.size() < 3) throw LineError("expected: collector SHARD NODE");
    const unsigned shard = parse_shard_number(tokens[1]);
    std::size_t next = 2;
    const Node& node = node_at(tokens, next);
    if (next != tokens.size()) throw LineError("unexpected " + quoted(tokens[next].text));
    if (node.type == NodeType::sw)
      throw LineError(display_name(node, names_) +
                      " is a switch: a collector is named by its host's HCA");
    if (auto it = collector_lines_.find(shard); it != collector_lines_.end())
      throw LineError("shard " + std::to_string(shard) + " already has a collector (line " +
                      std::to_string(it->second) + ")");
    if (auto it = collector_of_node_.find(node.guid); it != collector_of_node_.end())
      throw LineError(display_name(node, names_) + " is already the collector of shard " +
                      std::to_string(it->second.first) + " (line " +
                      std::to_string(it->second.second) + ")");
    file_.collectors[shard] = node.guid;
    collector_lines_[shard] = line;
    collector_of_node_[node.guid] = {shard, line};
    shard_lines_.emplace_back(line, shard);
  }

  void read_pin(const std::vector<Token>& tokens, unsigned line) {
    if (tokens.size() < 3) throw LineError("expected: pin SHARD NODE [PORTS]");
    Pin pin;
    pin.shard = parse_shard_number(tokens[1]);
    std::size_t next = 2;
    const Node& node = node_at(tokens, next);
    pin.node = node.guid;
    if (next < tokens.size()) pin.ports = ports_of(node, tokens[next++]);
    if (next != tokens.size())
      throw LineError("unexpected " + quoted(tokens[next].text) + " after the port list");
    check_not_pinned(node, pin.ports);
    if (pin.ports.empty()) whole_node_lines_[node.guid] = line;
    for (PortNumber port : pin.ports) port_lines_[PortRef{node.guid, port}] = line;
    file_.pins.push_back(std::move(pin));
    shard_lines_.emplace_back(line, file_.pins.back().shard);
  }

  // NODE or "lid" LID at tokens[next]; advances next past it.
  const Node& node_at(const std::vector<Token>& tokens, std::size_t& next) const {
    std::string text = tokens[next].text;
    if (is_keyword(tokens[next], "lid")) {
      if (next + 1 == tokens.size() ||
          tokens[next + 1].text.find_first_not_of("0123456789") != std::string::npos ||
          tokens[next + 1].text.empty())
        throw LineError("'lid' must be followed by a LID (a decimal number)");
      text = tokens[++next].text;
    }
    ++next;
    try {
      return poll::resolve_node(fabric_, names_, text);
    } catch (const poll::TargetError& e) {
      throw LineError(e.what());
    }
  }

  std::vector<PortNumber> ports_of(const Node& node, const Token& token) const {
    std::vector<PortNumber> ports;
    try {
      ports = parse_port_list(token.text);
    } catch (const std::invalid_argument& e) {
      throw LineError(e.what());
    }
    for (PortNumber port : ports)
      if (port > node.port_count)
        throw LineError(display_name(node, names_) + " has no port " + std::to_string(port) +
                        " (it has " + std::to_string(node.port_count) + ")");
    return ports;
  }

  void check_not_pinned(const Node& node, const std::vector<PortNumber>& ports) const {
    const std::string name = display_name(node, names_);
    if (auto it = whole_node_lines_.find(node.guid); it != whole_node_lines_.end())
      throw LineError(name + " is already pinned (line " + std::to_string(it->second) + ")");
    if (ports.empty()) {
      // A whole-node pin overlaps any port pin of the node.
      auto it = port_lines_.lower_bound(PortRef{node.guid, 0});
      if (it != port_lines_.end() && it->first.node == node.guid)
        throw LineError(port_name(fabric_, it->first, names_) + " is already pinned (line " +
                        std::to_string(it->second) + ")");
      return;
    }
    for (PortNumber port : ports)
      if (auto it = port_lines_.find(PortRef{node.guid, port}); it != port_lines_.end())
        throw LineError(port_name(fabric_, it->first, names_) + " is already pinned (line " +
                        std::to_string(it->second) + ")");
  }

  const Fabric& fabric_;
  const NodeNameMap* names_;
  DelegationFile file_;
  unsigned shards_line_ = 0;
  std::vector<std::pair<unsigned, unsigned>> shard_lines_;  // {line, shard} of pins, collectors
  std::map<unsigned, unsigned> collector_lines_;            // shard -> line
  std::map<Guid, std::pair<unsigned, unsigned>> collector_of_node_;  // node -> {shard, line}
  std::map<Guid, unsigned> whole_node_lines_;                        // node -> line
  std::map<PortRef, unsigned> port_lines_;                           // port -> line
};

}  // namespace

DelegationFile parse_delegation_file(std::istream& in, const std::string& origin,
                                     const Fabric& fabric, const NodeNameMap* names) {
  Reader reader(fabric, names);
  std::string text;
  for (unsigned line = 1; std::getline(in, text); ++line) {
    try {
      const std::vector<Token> tokens = tokens_of(text);
      if (!tokens.empty()) reader.read(tokens, line);
    } catch (const LineError& e) {
      throw std::runtime_error(origin + ":" + std::to_string(line) + ": " + e.what());
    }
  }
  if (in.bad()) throw std::runtime_error(origin + ": cannot read");
  if (const auto beyond = reader.shard_beyond_count())
    throw std::runtime_error(origin + ":" + std::to_string(beyond->first) + ": " + beyond->second);
  return reader.take();
}

DelegationFile load_delegation_file(const std::string& path, const Fabric& fabric,
                                    const NodeNameMap* names) {
  std::ifstream in = base::open_input_file(path);
  return parse_delegation_file(in, path, fabric, names);
}

}  // namespace ibpm::delegation
