// SPDX-License-Identifier: MIT

#include "delegation/port_list.hpp"

#include <algorithm>
#include <charconv>
#include <stdexcept>
#include <string>

namespace ibpm::delegation {
namespace {

constexpr unsigned max_port = 254;  // 255 is reserved in SMPs

PortNumber parse_port(std::string_view text, std::string_view list) {
  unsigned value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || error != std::errc() || end != text.data() + text.size() || value < 1 ||
      value > max_port)
    throw std::invalid_argument("bad port list '" + std::string(list) + "': '" + std::string(text) +
                                "' is not a port number (1.." + std::to_string(max_port) + ")");
  return static_cast<PortNumber>(value);
}

}  // namespace

std::vector<PortNumber> parse_port_list(std::string_view text) {
  std::vector<PortNumber> ports;
  std::string_view rest = text;
  while (true) {
    const std::size_t comma = rest.find(',');
    const std::string_view item = rest.substr(0, comma);
    const std::size_t dash = item.find('-');
    const PortNumber first = parse_port(item.substr(0, dash), text);
    const PortNumber last =
        dash == std::string_view::npos ? first : parse_port(item.substr(dash + 1), text);
    if (last < first)
      throw std::invalid_argument("bad port list '" + std::string(text) + "': range '" +
                                  std::string(item) + "' runs backwards");
    for (unsigned p = first; p <= last; ++p) ports.push_back(static_cast<PortNumber>(p));
    if (comma == std::string_view::npos) break;
    rest.remove_prefix(comma + 1);
  }
  std::sort(ports.begin(), ports.end());
  const auto twice = std::adjacent_find(ports.begin(), ports.end());
  if (twice != ports.end())
    throw std::invalid_argument("bad port list '" + std::string(text) + "': port " +
                                std::to_string(*twice) + " is listed twice");
  return ports;
}

}  // namespace ibpm::delegation
