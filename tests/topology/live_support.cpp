// SPDX-License-Identifier: MIT

#include "topology/live_support.hpp"

namespace ibpm::test {

std::string cable_name(std::string a, int a_port, std::string b, int b_port) {
  std::string first = a + "[" + std::to_string(a_port) + "]";
  std::string second = b + "[" + std::to_string(b_port) + "]";
  if (second < first) std::swap(first, second);
  return first + " <-> " + second;
}

std::multiset<std::string> cables(const Fabric& fabric) {
  std::multiset<std::string> out;
  for (const Link& l : fabric.links())
    out.insert(cable_name(fabric.node(l.a.node).description, l.a.port,
                          fabric.node(l.b.node).description, l.b.port));
  return out;
}

std::multiset<std::string> cables(const sim::NetTopology& net) {
  std::multiset<std::string> out;
  for (const sim::NetLink& l : net.links())
    out.insert(cable_name(net.node(l.a.node).name, l.a.port, net.node(l.b.node).name, l.b.port));
  return out;
}

}  // namespace ibpm::test
