// SPDX-License-Identifier: MIT

#include "dump/fabric_order.hpp"

#include <algorithm>
#include <array>
#include <charconv>

namespace ibpm::dump {
namespace {

int rank(NodeType type) {
  switch (type) {
    case NodeType::sw:
      return 0;
    case NodeType::ca:
      return 1;
    case NodeType::router:
      return 2;
    case NodeType::unknown:
      break;
  }
  return 3;
}

}  // namespace

std::vector<const Node*> nodes_in_write_order(const Fabric& fabric) {
  std::vector<const Node*> out;
  out.reserve(fabric.nodes().size());
  for (const Node& n : fabric.nodes()) out.push_back(&n);
  std::sort(out.begin(), out.end(), [](const Node* a, const Node* b) {
    int ra = rank(a->type), rb = rank(b->type);
    return ra != rb ? ra < rb : a->guid < b->guid;
  });
  return out;
}

std::string hex(std::uint64_t value) {
  std::array<char, 16> buf;
  auto [end, ec] = std::to_chars(buf.data(), buf.data() + buf.size(), value, 16);
  return std::string(buf.data(), end);
}

std::string hex16(Guid guid) {
  std::string digits = hex(guid);
  return std::string(16 - digits.size(), '0') + digits;
}

}  // namespace ibpm::dump
