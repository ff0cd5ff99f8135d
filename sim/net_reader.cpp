// SPDX-License-Identifier: MIT

#include "sim/net_reader.hpp"

#include <cctype>
#include <charconv>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "dump/text_scan.hpp"

namespace ibpm::sim {
namespace {

struct Line {
  int number = 0;
  std::string_view text;
};

using dump::scan::trim;

[[noreturn]] void fail(int line, const std::string& why) {
  throw std::invalid_argument("line " + std::to_string(line) + ": " + why);
}

bool skip_blanks(std::string_view& s) {
  std::size_t n = 0;
  while (n < s.size() && (s[n] == ' ' || s[n] == '\t')) ++n;
  s.remove_prefix(n);
  return n > 0;
}

std::optional<int> take_number(std::string_view& s) {
  int value = 0;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
  if (ec != std::errc()) return std::nullopt;
  s.remove_prefix(static_cast<std::size_t>(end - s.data()));
  return value;
}

std::optional<std::string> take_quoted(std::string_view& s) {
  if (s.empty() || s.front() != '"') return std::nullopt;
  auto close = s.find('"', 1);
  if (close == std::string_view::npos) return std::nullopt;
  std::string value(s.substr(1, close - 1));
  s.remove_prefix(close + 1);
  return value;
}

// "[N]" optionally followed by "(guid)".
std::optional<int> take_port(std::string_view& s) {
  if (s.empty() || s.front() != '[') return std::nullopt;
  s.remove_prefix(1);
  auto port = take_number(s);
  if (!port || s.empty() || s.front() != ']') return std::nullopt;
  s.remove_prefix(1);
  if (!s.empty() && s.front() == '(') {
    auto close = s.find(')');
    if (close == std::string_view::npos) return std::nullopt;
    s.remove_prefix(close + 1);
  }
  return port;
}

// The last WIDTHxSPEED word of the trailer ("4xHDR"); ibsim's default otherwise.
PortSetting trailer_setting(std::string_view rest) {
  PortSetting setting{LinkWidth::x4, LinkSpeed::sdr};
  auto hash = rest.find('#');
  if (hash == std::string_view::npos) return setting;
  rest = dump::scan::trim(rest.substr(hash + 1));
  auto space = rest.find_last_of(" \t");
  std::string_view word = space == std::string_view::npos ? rest : rest.substr(space + 1);
  auto x = word.find_first_of("xX");
  if (x == std::string_view::npos || x == 0) return setting;
  auto width = parse_link_width(word.substr(0, x + 1));
  auto speed = parse_link_speed(word.substr(x + 1));
  if (width && speed) setting = {*width, *speed};
  return setting;
}

std::optional<NodeType> header_type(std::string_view& s) {
  for (auto [keyword, type] : {std::pair{std::string_view("Switch"), NodeType::sw},
                               std::pair{std::string_view("Hca"), NodeType::ca},
                               std::pair{std::string_view("Ca"), NodeType::ca},
                               std::pair{std::string_view("Rt"), NodeType::sw}})
    if (s.starts_with(keyword) && s.size() > keyword.size() &&
        (s[keyword.size()] == ' ' || s[keyword.size()] == '\t')) {
      s.remove_prefix(keyword.size());
      return type;
    }
  return std::nullopt;
}

struct PortLine {
  int line = 0;
  std::size_t node = 0;
  int port = 0;
  std::string peer;
  int peer_port = 0;
  PortSetting setting;
};

}  // namespace

NetTopology parse_ibsim_net(std::string_view text) {
  NetTopology topology;
  std::vector<PortLine> ports;
  // The node whose record is being read; none between records.
  constexpr std::size_t kNone = static_cast<std::size_t>(-1);
  std::size_t current = kNone;
  int number = 0;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = dump::scan::trim(text.substr(start, end - start));
    start = end + 1;
    ++number;
    if (line.empty()) {
      current = kNone;  // a blank line ends a node's record
      continue;
    }
    if (line.front() == '#') continue;
    if (line.starts_with("include") || line.starts_with("do "))
      fail(number, "'" + std::string(line.substr(0, line.find_first_of(" \t"))) +
                       "' lines are not supported here");
    std::string_view rest = line;
    if (auto type = header_type(rest)) {
      skip_blanks(rest);
      auto count = take_number(rest);
      skip_blanks(rest);
      auto name = take_quoted(rest);
      if (!count || !name)
        fail(number, "expected TYPE PORTS \"NAME\", got '" + std::string(line) + "'");
      try {
        current = topology.add_node(*type, *name, *count);
      } catch (const std::invalid_argument& e) {
        fail(number, e.what());
      }
      continue;
    }
    if (line.front() == '[') {
      if (current == kNone) fail(number, "port line outside a node record");
      PortLine p;
      p.line = number;
      p.node = current;
      auto port = take_port(rest);
      skip_blanks(rest);
      auto peer = take_quoted(rest);
      auto peer_port = peer ? take_port(rest) : std::nullopt;
      if (!port || !peer || !peer_port)
        fail(number, "expected [PORT] \"PEER\"[PORT], got '" + std::string(line) + "'");
      p.port = *port;
      p.peer = std::move(*peer);
      p.peer_port = *peer_port;
      p.setting = trailer_setting(rest);
      ports.push_back(std::move(p));
      continue;
    }
    // Node options ibsim reads (vendid=0x2c9, sysimgguid=..., switchguid=...): not cabling.
    if (line.find('=') != std::string_view::npos) continue;
    fail(number, "unexpected line '" + std::string(line) + "'");
  }

  for (const PortLine& p : ports) {
    auto peer = topology.find_node(p.peer);
    if (!peer) fail(p.line, "no node \"" + p.peer + "\" in the file");
    const NetPort here{p.node, p.port}, there{*peer, p.peer_port};
    try {
      if (auto link = topology.link_at(here)) {
        // The peer's record named this cable first: it must name the same ports.
        if (topology.peer(here) != std::optional<NetPort>(there))
          fail(p.line, topology.port_name(here) + " is cabled to " +
                           topology.port_name(*topology.peer(here)) + " by another line");
      } else {
        topology.connect(here, there, p.setting);
      }
      topology.set_setting(here, p.setting);
    } catch (const std::invalid_argument& e) {
      if (std::string_view(e.what()).starts_with("line ")) throw;
      fail(p.line, e.what());
    }
  }
  return topology;
}

}  // namespace ibpm::sim
