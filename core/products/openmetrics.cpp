// SPDX-License-Identifier: MIT

#include "products/openmetrics.hpp"

#include <cmath>
#include <functional>
#include <limits>
#include <optional>
#include <ostream>
#include <sstream>
#include <stdexcept>
#include <string_view>
#include <unordered_map>

#include "base/atomic_file.hpp"
#include "base/file_lock.hpp"
#include "base/number.hpp"
#include "base/text.hpp"
#include "fabric/graph.hpp"
#include "levels/fabric_levels.hpp"
#include "poll/port_report.hpp"

namespace ibpm::products {

namespace {

using counters::Counter;
using counters::CounterSpec;
using sweep::PortVerdict;

using Value = std::optional<std::string>;

// One family: its HELP and TYPE lines, then a sample per port that has a value.
struct Family {
  std::string name;
  std::string type;  // "counter" or "gauge"
  std::string help;
  std::function<Value(const PortVerdict&)> value;
};

std::string counter_name(const CounterSpec& spec) {
  return "ibpm_port_" + std::string(spec.key) + (spec.data_words ? "_bytes" : "");
}

// The raw reading; data counters count 4-octet words, given in bytes.
Value raw_value(const poll::PortResult& result, const CounterSpec& spec) {
  if (!result.sample.answered) return std::nullopt;
  const auto value = result.record->raw[static_cast<std::size_t>(spec.id)];
  if (!value) return std::nullopt;
  if (!spec.data_words) return std::to_string(*value);
  if (*value <= std::numeric_limits<std::uint64_t>::max() / 4)
    return std::to_string(counters::to_octets(*value));
  return base::format_number(static_cast<double>(*value) * 4);
}

Value number(double value) {
  if (!std::isfinite(value)) return std::nullopt;
  return base::format_number(value);
}

// The active link of an answered port.
const LinkState* active_link(const poll::PortResult& r) {
  if (!r.sample.answered || !r.sample.live || r.sample.live->state != PortState::active)
    return nullptr;
  return &*r.sample.live;
}

// Of the BER windows judged for `counter`, the one whose lower bound is highest: the one that
// sets the port's state.
std::optional<link_quality::BitErrorRatio> judged_ber(const poll::PortResult& r, Counter counter,
                                                      const link_quality::BerSettings& settings) {
  if (!active_link(r) || r.rates.baseline) return std::nullopt;
  std::optional<link_quality::BitErrorRatio> worst;
  for (const link_quality::BerWindow& w : poll::port_ber(r, settings))
    if (w.counter == counter && w.judged() && (!worst || w.ber.lower > worst->lower)) worst = w.ber;
  return worst;
}

void add_ber_families(std::vector<Family>& families, Counter counter, const std::string& metric,
                      const link_quality::BerSettings& ber) {
  const std::string what = std::string(counters::spec(counter).name);
  families.push_back({"ibpm_port_" + metric, "gauge",
                      "Bit error ratio from " + what +
                          " over the BER window whose lower bound is highest (windows the "
                          "history covers only)",
                      [counter, &ber](const PortVerdict& v) -> Value {
                        const auto w = judged_ber(*v.result, counter, ber);
                        return w ? number(w->ratio) : std::nullopt;
                      }});
  families.push_back(
      {"ibpm_port_" + metric + "_lower_bound", "gauge",
       "The lower confidence bound of that ratio: what the " + metric + " threshold is judged on",
       [counter, &ber](const PortVerdict& v) -> Value {
         const auto w = judged_ber(*v.result, counter, ber);
         return w ? number(w->lower) : std::nullopt;
       }});
}

std::vector<Family> port_families(const OpenMetricsSettings& settings) {
  std::vector<Family> families;
  families.push_back(
      {"ibpm_port_up", "gauge", "1 when the sweep read the port's counters, 0 when it could not",
       [](const PortVerdict& v) -> Value { return v.result->sample.answered ? "1" : "0"; }});
  const counters::CounterMask allowed = settings.counter_mask();
  for (const CounterSpec& spec : counters::counter_specs()) {
    if (!(allowed & counters::counter_bit(spec.id))) continue;
    const std::string what = std::string(spec.name) + (spec.data_words ? " in bytes" : "");
    families.push_back({counter_name(spec) + "_total", "counter",
                        what + " as read (sticky: stops at its maximum until cleared)",
                        [&spec](const PortVerdict& v) { return raw_value(*v.result, spec); }});
  }
  families.push_back({"ibpm_port_link_state", "gauge",
                      "PortInfo PortState: 1 Down, 2 Init, 3 Armed, 4 Active",
                      [](const PortVerdict& v) -> Value {
                        const auto& live = v.result->sample.live;
                        if (!live || live->state == PortState::unknown) return std::nullopt;
                        return std::to_string(static_cast<int>(live->state));
                      }});
  families.push_back({"ibpm_port_link_capacity_bytes_per_second", "gauge",
                      "The active link's data rate after encoding (width times lane rate)",
                      [](const PortVerdict& v) -> Value {
                        const LinkState* live = active_link(*v.result);
                        if (!live || !live->width || !live->speed) return std::nullopt;
                        return std::to_string(static_cast<std::uint64_t>(lanes(*live->width)) *
                                              lane_data_rate_bps(*live->speed) / 8);
                      }});
  if (settings.all) {
    families.push_back({"ibpm_port_link_width_lanes", "gauge", "Active link width in lanes",
                        [](const PortVerdict& v) -> Value {
                          const auto& live = v.result->sample.live;
                          if (!live || !live->width) return std::nullopt;
                          return std::to_string(lanes(*live->width));
                        }});
    families.push_back({"ibpm_port_link_speed_bytes_per_second", "gauge",
                        "Active link speed: the data rate of one lane after encoding",
                        [](const PortVerdict& v) -> Value {
                          const auto& live = v.result->sample.live;
                          if (!live || !live->speed) return std::nullopt;
                          return std::to_string(lane_data_rate_bps(*live->speed) / 8);
                        }});
  }
  families.push_back({"ibpm_port_check_state", "gauge",
                      "The port's state as the sweep judges it (check_ib_fabric, the same "
                      "thresholds as check_ib_port): 0 OK, 1 WARNING, 2 CRITICAL, 3 UNKNOWN",
                      [](const PortVerdict& v) -> Value {
                        if (v.result->sample.cut) return std::nullopt;  // not asked this time
                        return std::to_string(static_cast<int>(v.state));
                      }});
  families.push_back({"ibpm_port_link_degraded", "gauge",
                      "1 when the active link is below the width or speed of the baseline "
                      "topology (or the best width the port enables), else 0",
                      [](const PortVerdict& v) -> Value {
                        const LinkState* live = active_link(*v.result);
                        if (!live) return std::nullopt;
                        return poll::link_degraded(*v.result->target, *live) ? "1" : "0";
                      }});
  families.push_back({"ibpm_port_flapping", "gauge",
                      "1 when the port's cable flaps (went down too often within the flap "
                      "window), said at one end of each cable; else 0",
                      [](const PortVerdict& v) -> Value {
                        if (!v.result->sample.answered) return std::nullopt;
                        return v.flapping ? "1" : "0";
                      }});
  add_ber_families(families, Counter::symbol_errors, "symbol_ber", settings.ber);
  if (settings.all) add_ber_families(families, Counter::rcv_errors, "rcv_errors_ber", settings.ber);
  families.push_back({"ibpm_port_xmit_wait_ratio", "gauge",
                      "Share of the last sweep interval the port had data to send and could not "
                      "(PortXmitWait): the share of its capacity lost to congestion",
                      [](const PortVerdict& v) -> Value {
                        const poll::PortResult& r = *v.result;
                        if (!r.sample.answered || r.rates.baseline || !r.rates.xmit_wait_pct)
                          return std::nullopt;
                        return number(*r.rates.xmit_wait_pct / 100);
                      }});
  return families;
}

std::string description(const Fabric& fabric, Guid guid) {
  const Node* node = fabric.find(guid);
  return node ? node->description : std::string();
}

// Each node's level by GUID: "host", "leaf", "spine", "core", "level N", or none.
class LevelNames {
 public:
  explicit LevelNames(const Fabric& fabric) {
    const levels::FabricLevels levels(fabric, make_graph(fabric));
    for (std::size_t i = 0; i < fabric.nodes().size(); ++i) {
      const int level = levels.level(i);
      if (level == levels::kNoLevel) continue;
      names_.emplace(fabric.nodes()[i].guid,
                     level == levels::kHostLevel ? "host" : levels.name(level));
    }
  }
  std::string of(Guid guid) const {
    const auto it = names_.find(guid);
    return it == names_.end() ? std::string() : it->second;
  }

 private:
  std::unordered_map<Guid, std::string> names_;
};

std::string port_labels(const poll::PortResult& result, const Fabric& fabric,
                        const LevelNames& levels) {
  const poll::PortTarget& t = *result.target;
  std::string labels = "node_guid=\"" + format_guid(t.node) + "\",port=\"" +
                       std::to_string(t.port) + "\",node=\"" +
                       openmetrics_label_value(description(fabric, t.node)) + "\",level=\"" +
                       levels.of(t.node) + "\",remote_guid=\"";
  if (t.remote)
    labels += format_guid(t.remote->node) + "\",remote_port=\"" + std::to_string(t.remote->port) +
              "\",remote=\"" + openmetrics_label_value(description(fabric, t.remote->node)) +
              "\",remote_level=\"" + levels.of(t.remote->node);
  else
    labels += "\",remote_port=\"\",remote=\"\",remote_level=\"";
  return labels + "\"";
}

// The text handed to a stream in pieces of about 64 kB: a large fabric's file (88 MB at 23,328
// ports) is never held whole in memory.
class Chunks {
 public:
  explicit Chunks(std::ostream& out) : out_(out) { text_.reserve(kSize + 4096); }
  ~Chunks() { flush(); }
  Chunks(const Chunks&) = delete;
  Chunks& operator=(const Chunks&) = delete;

  Chunks& operator+=(std::string_view text) {
    text_ += text;
    if (text_.size() >= kSize) flush();
    return *this;
  }
  void flush() {
    out_.write(text_.data(), static_cast<std::streamsize>(text_.size()));
    text_.clear();
  }

 private:
  static constexpr std::size_t kSize = 64 * 1024;
  std::ostream& out_;
  std::string text_;
};

void header(Chunks& out, const std::string& name, const std::string& type,
            const std::string& help) {
  out += "# HELP ";
  out += name;
  out += " ";
  out += help;
  out += "\n# TYPE ";
  out += name;
  out += " ";
  out += type;
  out += "\n";
}

// One sample line: NAME{LABELS} VALUE (MORE is appended to the labels).
void sample(Chunks& out, const std::string& name, const std::string& labels, std::string_view value,
            std::string_view more = {}) {
  out += name;
  out += "{";
  out += labels;
  out += more;
  out += "} ";
  out += value;
  out += "\n";
}

const char* congestion_role(sweep::CongestionPart part) {
  switch (part) {
    case sweep::CongestionPart::root:
      return "root";
    case sweep::CongestionPart::victim:
      return "victim";
    case sweep::CongestionPart::none:
      break;
  }
  return nullptr;
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

namespace {

// The whole file into `stream`.
void write_openmetrics_to(std::ostream& stream, const std::vector<PortVerdict>& verdicts,
                          const Fabric& fabric, const SweepFigures& figures,
                          const OpenMetricsSettings& settings) {
  const LevelNames levels(fabric);
  std::vector<std::string> labels;
  labels.reserve(verdicts.size());
  for (const PortVerdict& v : verdicts) labels.push_back(port_labels(*v.result, fabric, levels));
  Chunks out(stream);
  for (const Family& family : port_families(settings)) {
    header(out, family.name, family.type, family.help);
    for (std::size_t i = 0; i < verdicts.size(); ++i) {
      // A port a re-poll carried (its counters not read, its link unchanged) keeps the series
      // the sweep wrote: a re-poll's merge replaces only the ports it names.
      if (verdicts[i].result->carried) continue;
      if (const auto value = family.value(verdicts[i])) sample(out, family.name, labels[i], *value);
    }
  }
  // Only the ports of a congestion tree: most sweeps have none.
  header(out, "ibpm_port_congestion", "gauge",
         "1 for a port in a congestion tree the sweep found (with STATE_DIR/routes.lft), "
         "role root (what the others wait behind) or victim (waits behind a root)");
  for (std::size_t i = 0; i < verdicts.size(); ++i)
    if (const char* role = congestion_role(verdicts[i].congestion))
      sample(out, "ibpm_port_congestion", labels[i], "1", ",role=\"" + std::string(role) + "\"");
  const std::string scope = "scope=\"" + openmetrics_label_value(figures.scope) + "\"";
  const auto figure = [&](const std::string& name, const std::string& help,
                          const std::string& value) {
    header(out, name, "gauge", help);
    sample(out, name, scope, value);
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
}

}  // namespace

std::string openmetrics_text(const std::vector<PortVerdict>& verdicts, const Fabric& fabric,
                             const SweepFigures& figures, const OpenMetricsSettings& settings) {
  std::ostringstream out;
  write_openmetrics_to(out, verdicts, fabric, figures, settings);
  return std::move(out).str();
}

void write_openmetrics(const std::string& path, const std::vector<PortVerdict>& verdicts,
                       const Fabric& fabric, const SweepFigures& figures,
                       const OpenMetricsSettings& settings) {
  // Streamed into the file as it is made (replace_file_with checks the stream), under the lock a
  // re-poll merging its ports into the file takes.
  const base::FileLock lock(path);
  base::replace_file_with(path, [&](std::ostream& out) {
    write_openmetrics_to(out, verdicts, fabric, figures, settings);
  });
}

}  // namespace ibpm::products
