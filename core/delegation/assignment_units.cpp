// SPDX-License-Identifier: MIT

#include "delegation/assignment_units.hpp"

#include <limits>
#include <map>
#include <stdexcept>
#include <string>

namespace ibpm::delegation {
namespace {

constexpr std::size_t no_pin = std::numeric_limits<std::size_t>::max();

std::string port_text(Guid node, PortNumber port) {
  return format_guid(node) + " port " + std::to_string(port);
}

// Which pin holds each pinned port; a pin of a whole node stands for every port of it.
class PinIndex {
 public:
  PinIndex(const std::vector<Pin>& pins, unsigned count) : pins_(pins) {
    for (std::size_t i = 0; i < pins.size(); ++i) {
      const Pin& pin = pins[i];
      if (pin.shard < 1 || pin.shard > count)
        throw std::invalid_argument("a pin of " + format_guid(pin.node) + " names shard " +
                                    std::to_string(pin.shard) + ", but there are " +
                                    std::to_string(count) + " shards");
      if (pin.ports.empty()) {
        if (!whole_.emplace(pin.node, i).second || has_port_pin(pin.node))
          throw std::invalid_argument(format_guid(pin.node) + " is pinned twice");
        continue;
      }
      if (whole_.contains(pin.node))
        throw std::invalid_argument(format_guid(pin.node) + " is pinned twice");
      for (PortNumber port : pin.ports)
        if (!by_port_.emplace(PortRef{pin.node, port}, i).second)
          throw std::invalid_argument(port_text(pin.node, port) + " is pinned twice");
    }
  }

  std::size_t pin_of(Guid node, PortNumber port) const {
    if (auto it = whole_.find(node); it != whole_.end()) return it->second;
    if (auto it = by_port_.find(PortRef{node, port}); it != by_port_.end()) return it->second;
    return no_pin;
  }

  unsigned shard_of(std::size_t pin) const { return pin == no_pin ? 0 : pins_[pin].shard; }

 private:
  bool has_port_pin(Guid node) const {
    auto it = by_port_.lower_bound(PortRef{node, 0});
    return it != by_port_.end() && it->first.node == node;
  }

  const std::vector<Pin>& pins_;
  std::map<Guid, std::size_t> whole_;
  std::map<PortRef, std::size_t> by_port_;
};

}  // namespace

std::vector<Unit> make_units(const std::vector<poll::PortTarget>& targets,
                             const std::vector<Pin>& pins, unsigned count) {
  const PinIndex pin_index(pins, count);
  // Keyed by (node, pin): the node's pinned pieces sort first, its free ports (no_pin) last.
  std::map<std::pair<Guid, std::size_t>, Unit> units;
  for (std::size_t i = 0; i < targets.size(); ++i) {
    const std::size_t pin = pin_index.pin_of(targets[i].node, targets[i].port);
    Unit& unit = units[{targets[i].node, pin}];
    unit.node = targets[i].node;
    unit.pinned_shard = pin_index.shard_of(pin);
    unit.targets.push_back(i);
  }
  std::vector<Unit> out;
  out.reserve(units.size());
  for (auto& [key, unit] : units) out.push_back(std::move(unit));
  return out;
}

}  // namespace ibpm::delegation
