// SPDX-License-Identifier: MIT

#include "plugin/result.hpp"

#include <array>
#include <string_view>

namespace ibpm::plugin {
namespace {

void collect(const Subcheck& subcheck, std::vector<Perfdata>& out) {
  out.insert(out.end(), subcheck.perfdata.begin(), subcheck.perfdata.end());
  for (const auto& child : subcheck.children) collect(child, out);
}

}  // namespace

State effective_state(const Subcheck& subcheck) {
  if (subcheck.state) return *subcheck.state;
  State state = State::ok;
  for (const auto& child : subcheck.children) state = worst(state, effective_state(child));
  return state;
}

State effective_state(const Check& check) {
  if (check.state) return *check.state;
  State state = State::ok;
  for (const auto& subcheck : check.subchecks) state = worst(state, effective_state(subcheck));
  return state;
}

std::string effective_summary(const Check& check) {
  if (!check.summary.empty()) return check.summary;
  if (check.subchecks.empty()) return "no checks";
  // Indexed by severity(), so an out-of-range State value cannot index out of bounds.
  static constexpr std::array<std::string_view, 4> kNames{"ok", "unknown", "warning", "critical"};
  std::array<int, 4> counts{};
  for (const auto& subcheck : check.subchecks) ++counts[severity(effective_state(subcheck))];
  std::string summary;
  for (int level = 3; level >= 0; --level) {
    if (counts[level] == 0) continue;
    if (!summary.empty()) summary += ", ";
    summary += std::to_string(counts[level]) + " " + std::string(kNames[level]);
  }
  return summary;
}

std::vector<Perfdata> collect_perfdata(const Check& check) {
  std::vector<Perfdata> out = check.perfdata;
  for (const auto& subcheck : check.subchecks) collect(subcheck, out);
  return out;
}

Check unknown_check(std::string summary) {
  Check check;
  check.state = State::unknown;
  check.summary = std::move(summary);
  return check;
}

}  // namespace ibpm::plugin
