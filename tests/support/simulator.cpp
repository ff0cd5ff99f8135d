// SPDX-License-Identifier: MIT
// Reads ibnetdiscover's text line by line: node headers, then their port lines.
#include "support/simulator.hpp"

#include <sstream>
#include <stdexcept>

namespace ibpm::test {
namespace {

// The first "..." after position `from`.
std::string quoted_after(const std::string& line, std::size_t from) {
  auto open = line.find('"', from);
  if (open == std::string::npos) return "";
  auto close = line.find('"', open + 1);
  if (close == std::string::npos) return "";
  return line.substr(open + 1, close - open - 1);
}

int number_after(const std::string& line, const std::string& label, std::size_t from = 0) {
  auto at = line.find(label, from);
  if (at == std::string::npos) return -1;
  return std::stoi(line.substr(at + label.size()));
}

}  // namespace

Discovery parse_ibnetdiscover(const std::string& text) {
  Discovery d;
  std::istringstream in(text);
  std::string line, current;
  bool current_is_ca = false;
  while (std::getline(in, line)) {
    auto hash = line.find('#');
    if (line.starts_with("Switch") || line.starts_with("Ca")) {
      current = hash == std::string::npos ? "" : quoted_after(line, hash);
      current_is_ca = line.starts_with("Ca");
      (current_is_ca ? d.cas : d.switches).insert(current);
      if (!current_is_ca) d.lids[current] = number_after(line, " lid ", hash);
    } else if (line.starts_with("[") && hash != std::string::npos && !current.empty()) {
      DiscoveredPort p;
      p.node = current;
      p.port = std::stoi(line.substr(1));
      if (current_is_ca) {
        // "# lid 4 lmc 0 "leaf01" lid 2 4xHDR": the CA's own LID comes first.
        d.lids[current] = number_after(line, "lid ", hash);
      }
      std::size_t name_at = line.find('"', hash);
      p.peer = quoted_after(line, hash);
      std::size_t after_name = line.find('"', name_at + 1);
      std::istringstream rest(line.substr(after_name + 1));
      std::string word, lid;
      rest >> word >> lid >> p.rate;  // lid N 4xHDR
      d.ports.push_back(p);
    }
  }
  return d;
}

Discovery discover(sim::SimulatedFabric& fabric) {
  std::string out;
  if (fabric.run_client({"ibnetdiscover"}, &out) != 0)
    throw std::runtime_error("ibnetdiscover failed");
  return parse_ibnetdiscover(out);
}

}  // namespace ibpm::test
