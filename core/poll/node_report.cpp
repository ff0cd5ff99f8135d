// SPDX-License-Identifier: MIT

#include "poll/node_report.hpp"

#include <algorithm>

namespace ibpm::poll {

namespace {

using plugin::State;
using plugin::Subcheck;

struct PortLine {
  std::string cable;  // both ends, for the summary
  Subcheck check;
};

std::string summary(const std::string& node, const std::vector<PortLine>& ports, State worst,
                    std::size_t shown) {
  std::size_t bad = 0;
  for (const PortLine& p : ports) bad += effective_state(p.check) != State::ok;
  std::string text = node + ": " + std::to_string(ports.size()) + " ports";
  if (bad == 0) return text + ", all OK";
  text += ", " + std::to_string(bad) + " not OK; worst: ";
  std::size_t named = 0, more = 0;
  for (const PortLine& p : ports) {
    if (effective_state(p.check) != worst) continue;
    if (named == shown) {
      ++more;
      continue;
    }
    text += (named++ ? "; " : "") + p.cable;
    const auto why = port_reason(p.check, worst, p.cable);
    text += (why.from_children ? " " : ": ") + why.text;
  }
  if (more) text += "; and " + std::to_string(more) + " more";
  return text;
}

}  // namespace

plugin::Check node_report(const std::string& node, const std::vector<const PortResult*>& results,
                          const NodeReportSettings& settings, const AnnotatePorts& annotate) {
  plugin::Check check;
  State worst = State::ok;
  std::vector<PortLine> ports;
  for (const PortResult* result : results) {
    Subcheck port = port_subcheck(*result, settings.port);
    worst = plugin::worst(worst, effective_state(port));
    const std::string prefix = "p" + std::to_string(result->target->port) + "_";
    for (auto& p : port_perfdata(*result, *settings.port.thresholds, prefix, settings.port.ber))
      check.perfdata.push_back(std::move(p));
    ports.push_back({cable_name(*result->target), std::move(port)});
  }
  if (annotate) {
    std::vector<Subcheck*> port_checks;
    for (PortLine& p : ports) port_checks.push_back(&p.check);
    annotate(port_checks);
  }
  // Worst ports first, in the long output too.
  std::stable_sort(ports.begin(), ports.end(), [](const PortLine& a, const PortLine& b) {
    return plugin::severity(effective_state(a.check)) > plugin::severity(effective_state(b.check));
  });
  check.summary = summary(node, ports, worst, settings.shown);
  for (PortLine& p : ports) check.subchecks.push_back(std::move(p.check));
  return check;
}

}  // namespace ibpm::poll
