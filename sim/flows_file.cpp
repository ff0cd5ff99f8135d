// SPDX-License-Identifier: MIT

#include "sim/flows_file.hpp"

#include <cctype>
#include <charconv>
#include <cmath>
#include <fstream>
#include <sstream>

#include "dump/text_scan.hpp"

namespace ibpm::sim {
namespace {

using dump::scan::trim;

std::string_view take_word(std::string_view& s) {
  s = dump::scan::trim(s);
  std::size_t n = 0;
  while (n < s.size() && !std::isspace(static_cast<unsigned char>(s[n]))) ++n;
  std::string_view word = s.substr(0, n);
  s.remove_prefix(n);
  return word;
}

// The multiplier of a unit ("", "M", "MB", "MB/s", "MiB/s", "B/s", "/s", ...); nullopt otherwise.
std::optional<double> unit_factor(std::string_view unit) {
  if (unit.ends_with("/s")) unit.remove_suffix(2);
  if (unit.ends_with("B")) unit.remove_suffix(1);
  if (unit.empty()) return 1.0;
  double base = 1000;
  if (unit.size() == 2 && unit[1] == 'i') {
    base = 1024;
    unit.remove_suffix(1);
  }
  if (unit.size() != 1) return std::nullopt;
  switch (unit[0]) {
    case 'k':
    case 'K':
      return base;
    case 'M':
      return base * base;
    case 'G':
      return base * base * base;
    case 'T':
      return base * base * base * base;
    default:
      return std::nullopt;
  }
}

std::string rate_error(std::string_view rate) {
  std::string why = "bad rate '" + std::string(rate) + "'";
  if (rate.find('b') != std::string_view::npos)
    return why + ": rates are octets per second (B), not bits: e.g. 1.5GB/s";
  return why + ": expected octets per second, e.g. 1250000, 800M, 500MB/s, 1.5GB/s, 2GiB/s";
}

std::string host_error(const NetTopology& topology, std::string_view name) {
  auto node = topology.find_node(name);
  if (!node) return "unknown host '" + std::string(name) + "' (not in the simulated fabric)";
  return "'" + std::string(name) + "' is a switch, not a host";
}

}  // namespace

std::optional<double> parse_rate(std::string_view text) {
  text = dump::scan::trim(text);
  double value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end == text.data()) return std::nullopt;
  std::string_view unit = dump::scan::trim(std::string_view(end, text.data() + text.size() - end));
  auto factor = unit_factor(unit);
  if (!factor || !std::isfinite(value) || value < 0) return std::nullopt;
  return value * *factor;
}

std::vector<Flow> parse_flows(std::istream& in, const std::string& name,
                              const NetTopology& topology) {
  std::vector<Flow> flows;
  int number = 0;
  for (std::string text; std::getline(in, text);) {
    ++number;
    auto fail = [&](const std::string& why) {
      throw FlowsFileError(name + ":" + std::to_string(number) + ": " + why);
    };
    std::string_view line = text;
    if (auto hash = line.find('#'); hash != std::string_view::npos) line = line.substr(0, hash);
    line = dump::scan::trim(line);
    if (line.empty()) continue;
    std::string_view from = take_word(line), to = take_word(line), rate = dump::scan::trim(line);
    if (to.empty() || rate.empty()) fail("expected FROM TO RATE, e.g. cn0001 cn0002 500MB/s");
    auto octets = parse_rate(rate);
    if (!octets) fail(rate_error(rate));
    for (std::string_view host : {from, to}) {
      auto node = topology.find_node(host);
      if (!node || topology.node(*node).type != NodeType::ca) fail(host_error(topology, host));
    }
    if (from == to) fail("flow from " + std::string(from) + " to itself");
    flows.push_back({std::string(from), std::string(to), *octets});
  }
  if (in.bad()) throw FlowsFileError(name + ": read error");
  return flows;
}

std::vector<Flow> read_flows_file(const std::filesystem::path& path, const NetTopology& topology) {
  std::ifstream in(path);
  if (!in) throw FlowsFileError(path.string() + ": cannot read the flows file");
  return parse_flows(in, path.string(), topology);
}

}  // namespace ibpm::sim
