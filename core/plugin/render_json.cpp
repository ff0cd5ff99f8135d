// SPDX-License-Identifier: MIT

#include "base/json.hpp"
#include "plugin/render.hpp"

namespace ibpm::plugin {
namespace {

std::string optional_number(const std::optional<double>& value) {
  return value ? base::json_number(*value) : "null";
}

std::string optional_range(const std::optional<Range>& range) {
  return range ? base::json_string(to_string(*range)) : "null";
}

void render_perfdata(const std::vector<Perfdata>& items, std::string& out) {
  out += '[';
  for (std::size_t i = 0; i < items.size(); ++i) {
    const Perfdata& p = items[i];
    if (i > 0) out += ',';
    out += "{\"label\":" + base::json_string(p.label) + ",\"value\":" + base::json_number(p.value) +
           ",\"uom\":" + base::json_string(p.uom) + ",\"warn\":" + optional_range(p.warn) +
           ",\"crit\":" + optional_range(p.crit) + ",\"min\":" + optional_number(p.min) +
           ",\"max\":" + optional_number(p.max) + '}';
  }
  out += ']';
}

void render_subchecks(const std::vector<Subcheck>& subchecks, std::string& out) {
  out += '[';
  for (std::size_t i = 0; i < subchecks.size(); ++i) {
    const Subcheck& s = subchecks[i];
    if (i > 0) out += ',';
    out += "{\"state\":" + base::json_string(to_string(effective_state(s))) +
           ",\"output\":" + base::json_string(s.output) + ",\"perfdata\":";
    render_perfdata(s.perfdata, out);
    out += ",\"subchecks\":";
    render_subchecks(s.children, out);
    out += '}';
  }
  out += ']';
}

}  // namespace

std::string render_json(const Check& check, std::string_view prefix) {
  const State state = effective_state(check);
  std::string out = "{\"prefix\":" + base::json_string(prefix) +
                    ",\"state\":" + base::json_string(to_string(state)) +
                    ",\"exit_code\":" + std::to_string(exit_code(state)) +
                    ",\"summary\":" + base::json_string(effective_summary(check)) +
                    ",\"perfdata\":";
  render_perfdata(check.perfdata, out);
  out += ",\"subchecks\":";
  render_subchecks(check.subchecks, out);
  out += "}\n";
  return out;
}

}  // namespace ibpm::plugin
