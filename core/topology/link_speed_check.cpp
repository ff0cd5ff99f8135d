// SPDX-License-Identifier: MIT

#include "topology/link_speed_check.hpp"

#include <algorithm>

namespace ibpm::topology {
namespace {

template <typename T>
std::optional<T> lower(std::optional<T> a, std::optional<T> b) {
  if (a && b) return std::min(*a, *b);
  return a ? a : b;
}

template <typename T>
std::optional<T> higher(std::optional<T> a, std::optional<T> b) {
  if (a && b) return std::max(*a, *b);
  return a ? a : b;
}

// The largest member of the intersection of two enabled sets, if both ends say anything.
template <typename Enum>
std::optional<Enum> best_common(const EnumSet<Enum>& a, const EnumSet<Enum>& b) {
  if (a.empty() || b.empty()) return std::nullopt;
  EnumSet<Enum> both;
  for (unsigned i = 0; i < 32; ++i) {
    auto e = static_cast<Enum>(i);
    if (a.contains(e) && b.contains(e)) both.insert(e);
  }
  if (both.empty()) return std::nullopt;
  return both.max();
}

std::string rate_text(const LinkRate& rate) {
  std::string text = rate.width ? std::string(to_string(*rate.width)) : "?";
  text += " ";
  text += rate.speed ? std::string(to_string(*rate.speed)) : "?";
  return text;
}

}  // namespace

LinkRate active_rate(const Fabric& fabric, const Link& link) {
  const Port* a = fabric.find_port(link.a);
  const Port* b = fabric.find_port(link.b);
  LinkRate rate;
  if (a) rate = {a->width, a->speed};
  if (b) rate = {lower(rate.width, b->width), lower(rate.speed, b->speed)};
  return rate;
}

LinkRate enabled_rate(const Fabric& fabric, const Link& link) {
  const Port* a = fabric.find_port(link.a);
  const Port* b = fabric.find_port(link.b);
  if (!a || !b) return {};
  return {best_common(a->widths_enabled, b->widths_enabled),
          best_common(a->speeds_enabled, b->speeds_enabled)};
}

Degradation check_link_rate(const Fabric& fabric, const Link& link,
                            const std::optional<LinkRate>& baseline_rate) {
  Degradation d;
  d.active = active_rate(fabric, link);
  d.expected = enabled_rate(fabric, link);
  if (baseline_rate) {
    d.expected.width = higher(d.expected.width, baseline_rate->width);
    d.expected.speed = higher(d.expected.speed, baseline_rate->speed);
  }
  d.width = d.active.width && d.expected.width && *d.active.width < *d.expected.width;
  d.speed = d.active.speed && d.expected.speed && *d.active.speed < *d.expected.speed;
  return d;
}

std::string Degradation::describe() const {
  return rate_text(active) + ", expected " + rate_text(expected);
}

std::optional<LinkRate> baseline_rate(const Fabric* baseline, const Link& link) {
  if (!baseline) return std::nullopt;
  auto peer = baseline->remote(link.a);
  if (!peer || *peer != link.b) return std::nullopt;
  const Port* port = baseline->find_port(link.a);
  return active_rate(*baseline, baseline->links()[*port->link]);
}

}  // namespace ibpm::topology
