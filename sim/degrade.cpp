// SPDX-License-Identifier: MIT

#include "sim/degrade.hpp"

#include <charconv>
#include <stdexcept>

namespace ibpm::sim {

void degrade_link(NetTopology& topology, const LinkDegradation& d) {
  auto node = topology.find_node(d.node);
  if (!node) throw std::invalid_argument("degrade: no node '" + d.node + "'");
  NetPort port{*node, d.port};
  auto peer = topology.peer(port);
  if (!peer) throw std::invalid_argument("degrade: " + topology.port_name(port) + " is not cabled");
  auto lower = [&](NetPort p) {
    PortSetting s = topology.setting(p);
    s.width = d.width;
    if (d.speed) s.speed = *d.speed;
    topology.set_setting(p, s);
  };
  lower(port);
  if (d.both_ends) lower(*peer);
}

std::optional<LinkDegradation> parse_degradation(std::string_view text) {
  auto open = text.find('[');
  auto close = text.find(']', open == std::string_view::npos ? 0 : open);
  if (open == std::string_view::npos || open == 0 || close == std::string_view::npos ||
      close + 1 >= text.size() || text[close + 1] != '=')
    return std::nullopt;
  LinkDegradation d;
  d.node = std::string(text.substr(0, open));
  std::string_view number = text.substr(open + 1, close - open - 1);
  auto [end, ec] = std::from_chars(number.data(), number.data() + number.size(), d.port);
  if (ec != std::errc() || end != number.data() + number.size() || d.port < 1) return std::nullopt;
  std::string_view rate = text.substr(close + 2);
  auto x = rate.find_first_of("xX");
  if (x == std::string_view::npos) return std::nullopt;
  auto width = parse_link_width(rate.substr(0, x + 1));
  if (!width) return std::nullopt;
  d.width = *width;
  if (x + 1 < rate.size()) {
    auto speed = parse_link_speed(rate.substr(x + 1));
    if (!speed) return std::nullopt;
    d.speed = *speed;
  }
  return d;
}

}  // namespace ibpm::sim
