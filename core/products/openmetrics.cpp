// SPDX-License-Identifier: MIT

#include "products/openmetrics.hpp"

#include <cmath>
#include <functional>
#include <limits>
#include <optional>
#include <stdexcept>

#include "base/atomic_file.hpp"
#include "base/number.hpp"
#include "base/text.hpp"
#include "poll/port_report.hpp"

namespace ibpm::products {

namespace {

using counters::Counter;
using counters::CounterSpec;

// One family: its HELP and TYPE lines, then a sample per port that has a value.
struct Family {
  std::string name;
  std::string type;  // "counter" or "gauge"
  std::string help;
  std::function<std::optional<std::string>(const poll::PortResult&)> value;
};

std::string counter_name(const CounterSpec& spec) {
  return "ibpm_port_" + std::string(spec.key) + (spec.data_words ? "_bytes" : "");
}

// The raw reading; data counters count 4-octet words, given in bytes.
std::optional<std::string> raw_value(const poll::PortResult& result, const CounterSpec& spec) {
  if (!result.sample.answered) return std::nullopt;
  const auto value = result.record->raw[static_cast<std::size_t>(spec.id)];
  if (!value) return std::nullopt;
  if (!spec.data_words) return std::to_string(*value);
  if (*value <= std::numeric_limits<std::uint64_t>::max() / 4)
    return std::to_string(counters::to_octets(*value));
  return base::format_number(static_cast<double>(*value) * 4);
}

std::optional<std::string> rate_value(const poll::PortResult& result, Counter counter) {
  if (!result.sample.answered || result.rates.baseline) return std::nullopt;
  const auto rate = result.rates.of(counter);
  if (!rate) return std::nullopt;
  const double value = poll::reported_rate(counter, rate->per_second);
  if (!std::isfinite(value)) return std::nullopt;
  return base::format_number(value);
}

std::vector<Family> port_families(counters::CounterMask allowed) {
  std::vector<Family> families;
  families.push_back({"ibpm_port_up", "gauge",
                      "1 when the sweep read the port's counters, 0 when it could not",
                      [](const poll::PortResult& r) -> std::optional<std::string> {
                        return r.sample.answered ? "1" : "0";
                      }});
  for (const CounterSpec& spec : counters::counter_specs()) {
    if (!(allowed & counters::counter_bit(spec.id))) continue;
    const std::string what = std::string(spec.name) + (spec.data_words ? " in bytes" : "");
    families.push_back({counter_name(spec) + "_total", "counter",
                        what + " as read (sticky: stops at its maximum until cleared)",
                        [&spec](const poll::PortResult& r) { return raw_value(r, spec); }});
    families.push_back({counter_name(spec) + "_per_second", "gauge",
                        what + " per second over the last sweep interval",
                        [&spec](const poll::PortResult& r) { return rate_value(r, spec.id); }});
  }
  families.push_back({"ibpm_port_link_state", "gauge",
                      "PortInfo PortState: 1 Down, 2 Init, 3 Armed, 4 Active",
                      [](const poll::PortResult& r) -> std::optional<std::string> {
                        if (!r.sample.live || r.sample.live->state == PortState::unknown)
                          return std::nullopt;
                        return std::to_string(static_cast<int>(r.sample.live->state));
                      }});
  families.push_back({"ibpm_port_link_width_lanes", "gauge", "Active link width in lanes",
                      [](const poll::PortResult& r) -> std::optional<std::string> {
                        if (!r.sample.live || !r.sample.live->width) return std::nullopt;
                        return std::to_string(lanes(*r.sample.live->width));
                      }});
  families.push_back({"ibpm_port_link_speed_bytes_per_second", "gauge",
                      "Active link speed: the data rate of one lane after encoding",
                      [](const poll::PortResult& r) -> std::optional<std::string> {
                        if (!r.sample.live || !r.sample.live->speed) return std::nullopt;
                        return std::to_string(lane_data_rate_bps(*r.sample.live->speed) / 8);
                      }});
  return families;
}

std::string description(const Fabric& fabric, Guid guid) {
  const Node* node = fabric.find(guid);
  return node ? node->description : std::string();
}

std::string port_labels(const poll::PortResult& result, const Fabric& fabric) {
  const poll::PortTarget& t = *result.target;
  std::string labels = "node_guid=\"" + format_guid(t.node) + "\",port=\"" +
                       std::to_string(t.port) + "\",node=\"" +
                       openmetrics_label_value(description(fabric, t.node)) + "\",remote_guid=\"";
  if (t.remote)
    labels += format_guid(t.remote->node) + "\",remote_port=\"" + std::to_string(t.remote->port) +
              "\",remote=\"" + openmetrics_label_value(description(fabric, t.remote->node));
  else
    labels += "\",remote_port=\"\",remote=\"";
  return labels + "\"";
}

void header(std::string& out, const std::string& name, const std::string& type,
            const std::string& help) {
  out += "# HELP " + name + " " + help + "\n# TYPE " + name + " " + type + "\n";
}

}  // namespace

std::string openmetrics_label_value(std::string_view text) {
  const std::string utf8 = base::valid_utf8(text);
  std::string out;
  out.reserve(utf8.size());
  for (const char c : utf8) {
    const auto byte = static_cast<unsigned char>(c);
    if (c == '\\')
      out += "\\\\";
    else if (c == '"')
      out += "\\\"";
    else if (c == '\n')
      out += "\\n";
    else if (byte < 0x20 || byte == 0x7f)
      out += ' ';
    else
      out += c;
  }
  return out;
}

counters::CounterMask parse_counter_list(std::string_view list) {
  if (list == "all") return kAllCounters;
  counters::CounterMask mask = 0;
  std::size_t from = 0;
  while (from <= list.size()) {
    const std::size_t end = std::min(list.find(',', from), list.size());
    const std::string_view key = list.substr(from, end - from);
    if (!key.empty()) {
      const auto counter = counters::counter_by_key(key);
      if (!counter)
        throw std::invalid_argument("unknown counter '" + std::string(key) +
                                    "' (use the perfdata names: symbol_errors, xmit_data, ...)");
      mask |= counters::counter_bit(*counter);
    }
    from = end + 1;
  }
  return mask;
}

std::string openmetrics_text(const std::vector<poll::PortResult>& results, const Fabric& fabric,
                             const SweepFigures& figures, counters::CounterMask counters) {
  std::vector<std::string> labels;
  labels.reserve(results.size());
  for (const poll::PortResult& result : results) labels.push_back(port_labels(result, fabric));
  std::string out;
  for (const Family& family : port_families(counters)) {
    header(out, family.name, family.type, family.help);
    for (std::size_t i = 0; i < results.size(); ++i)
      if (const auto value = family.value(results[i]))
        out += family.name + "{" + labels[i] + "} " + *value + "\n";
  }
  const std::string scope = "{scope=\"" + openmetrics_label_value(figures.scope) + "\"} ";
  const auto figure = [&](const std::string& name, const std::string& help,
                          const std::string& value) {
    header(out, name, "gauge", help);
    out += name + scope + value + "\n";
  };
  figure("ibpm_sweep_start_time_seconds", "When the last sweep started (epoch seconds)",
         base::format_number(figures.started));
  figure("ibpm_sweep_duration_seconds", "How long the last sweep took",
         base::format_number(figures.duration));
  figure("ibpm_sweep_mads_sent", "MADs the last sweep put on the wire (retries included)",
         std::to_string(figures.mads_sent));
  figure("ibpm_sweep_mad_retries", "MADs the last sweep sent again after a timeout",
         std::to_string(figures.mad_retries));
  figure("ibpm_sweep_ports", "Ports the last sweep set out to read", std::to_string(figures.ports));
  figure("ibpm_sweep_ports_read", "Ports whose counters the last sweep read",
         std::to_string(figures.ports_read));
  figure("ibpm_sweep_ports_unreachable", "Ports whose counters the last sweep could not read",
         std::to_string(figures.ports_unreachable));
  figure("ibpm_sweep_store_checked",
         "Ports whose last update the last sweep checked in the central store (0 without one)",
         std::to_string(figures.store_checked));
  return out;
}

void write_openmetrics(const std::string& path, const std::vector<poll::PortResult>& results,
                       const Fabric& fabric, const SweepFigures& figures,
                       counters::CounterMask counters) {
  const std::string text = openmetrics_text(results, fabric, figures, counters);
  base::replace_file_with(path, [&](std::ostream& out) { out << text; });
}

}  // namespace ibpm::products
