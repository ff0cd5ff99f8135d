// SPDX-License-Identifier: MIT

#include "base/text.hpp"
#include "plugin/render.hpp"

namespace ibpm::plugin {
namespace {

void render_subcheck(const Subcheck& subcheck, int depth, std::string& out) {
  out.append(static_cast<std::size_t>(depth) * 2, ' ');
  out += "\\_[";
  out += to_string(effective_state(subcheck));
  out += "] ";
  out += base::one_line(subcheck.output);
  out += '\n';
  for (const auto& child : subcheck.children) render_subcheck(child, depth + 1, out);
}

}  // namespace

std::string render_text(const Check& check, std::string_view prefix) {
  std::string out = base::one_line(prefix);
  if (!out.empty()) out += ' ';
  out += to_string(effective_state(check));
  out += " - ";
  out += base::one_line(effective_summary(check));
  const std::string perfdata = format_perfdata(collect_perfdata(check));
  if (!perfdata.empty()) out += " | " + perfdata;
  out += '\n';
  for (const auto& subcheck : check.subchecks) render_subcheck(subcheck, 0, out);
  return out;
}

std::string render(const Check& check, std::string_view prefix, OutputFormat format) {
  return format == OutputFormat::json ? render_json(check, prefix) : render_text(check, prefix);
}

}  // namespace ibpm::plugin
