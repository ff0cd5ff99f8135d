// SPDX-License-Identifier: MIT

#include "rates_table.hpp"

#include <algorithm>
#include <cstdio>

#include "base/json.hpp"
#include "poll/port_report.hpp"
#include "products/metric_values.hpp"
#include "products/port_events.hpp"

namespace ibpm::tools {

namespace {

double rate(const sweep::PortVerdict& v, counters::Counter counter) {
  const auto r = v.result->rates.of(counter);
  return r ? poll::reported_rate(counter, r->per_second) : 0.0;
}

double traffic(const sweep::PortVerdict& v) {
  return rate(v, counters::Counter::xmit_data) + rate(v, counters::Counter::rcv_data);
}

std::string fixed(const char* format, double value) {
  char text[32];
  std::snprintf(text, sizeof text, format, value);
  return text;
}

std::string optional_percent(const std::optional<double>& value) {
  return value ? fixed("%.1f", *value) : "-";
}

// "symbol_errors 3/s, rcv_errors 1/s" for the error counters above zero.
std::string errors_text(const sweep::PortVerdict& v) {
  std::string text;
  for (const counters::CounterSpec& s : counters::counter_specs()) {
    const auto r = v.result->rates.of(s.id);
    if (!s.error || !r || r->per_second <= 0) continue;
    text += (text.empty() ? "" : ", ") + std::string(s.key) + " " + (r->lower_bound ? ">=" : "") +
            poll::format_rate(r->per_second);
  }
  return text;
}

// What the port is doing, when it has no rates.
std::string status_text(const sweep::PortVerdict& v) {
  const poll::PortResult& r = *v.result;
  if (!r.sample.answered) return "unreachable: " + r.sample.error;
  if (!r.state_error.empty()) return "state: " + r.state_error;
  if (r.rates.baseline) return "first sample (rates from the next run)";
  return errors_text(v);
}

}  // namespace

std::vector<const sweep::PortVerdict*> ordered_ports(
    const std::vector<sweep::PortVerdict>& verdicts, RatesSort sort, std::size_t top) {
  std::vector<const sweep::PortVerdict*> ports;
  for (const sweep::PortVerdict& v : verdicts) ports.push_back(&v);
  if (sort == RatesSort::errors)
    std::stable_sort(ports.begin(), ports.end(), [](auto* a, auto* b) {
      return sweep::error_rate(*a->result) > sweep::error_rate(*b->result);
    });
  if (sort == RatesSort::traffic)
    std::stable_sort(ports.begin(), ports.end(),
                     [](auto* a, auto* b) { return traffic(*a) > traffic(*b); });
  if (top > 0 && ports.size() > top) ports.resize(top);
  return ports;
}

void print_rates_table(std::ostream& out, const std::vector<const sweep::PortVerdict*>& ports) {
  std::size_t width = 4;
  for (const auto* v : ports) width = std::max(width, products::log_safe(v->cable()).size());
  char header[256];
  std::snprintf(header, sizeof header, "%-*s  %-8s  %10s  %10s  %6s  %6s  %6s  %s\n",
                static_cast<int>(width), "PORT", "STATE", "XMIT MB/s", "RCV MB/s", "XMIT%", "RCV%",
                "WAIT%", "ERRORS / STATUS");
  out << header;
  for (const auto* v : ports) {
    const poll::PortRates& rates = v->result->rates;
    const bool has_rates = v->result->sample.answered && !rates.baseline;
    char line[512];
    std::snprintf(
        line, sizeof line, "%-*s  %-8s  %10s  %10s  %6s  %6s  %6s  ", static_cast<int>(width),
        products::log_safe(v->cable()).c_str(), std::string(plugin::to_string(v->state)).c_str(),
        has_rates ? fixed("%.3f", rate(*v, counters::Counter::xmit_data) / 1e6).c_str() : "-",
        has_rates ? fixed("%.3f", rate(*v, counters::Counter::rcv_data) / 1e6).c_str() : "-",
        optional_percent(rates.xmit_util_pct).c_str(), optional_percent(rates.rcv_util_pct).c_str(),
        optional_percent(rates.xmit_wait_pct).c_str());
    out << line << products::log_safe(status_text(*v)) << "\n";
  }
}

void print_rates_json(std::ostream& out, const std::vector<const sweep::PortVerdict*>& ports) {
  using base::json_number;
  using base::json_string;
  out << "[";
  bool first_port = true;
  for (const auto* v : ports) {
    const poll::PortResult& r = *v->result;
    out << (first_port ? "\n" : ",\n")
        << "{\"node_guid\":" << json_string(format_guid(r.target->node))
        << ",\"port\":" << static_cast<int>(r.target->port)
        << ",\"name\":" << json_string(r.target->name)
        << ",\"remote\":" << json_string(r.target->remote_name)
        << ",\"state\":" << json_string(plugin::to_string(v->state))
        << ",\"status\":" << json_string(status_text(*v)) << ",\"interval\":"
        << (r.sample.answered && !r.rates.baseline ? json_number(r.rates.interval) : "null")
        << ",\"rates\":{";
    bool first = true;
    for (const products::Metric& metric : products::port_metrics()) {
      const auto value = products::metric_value(metric, r);
      if (!value) continue;
      out << (first ? "" : ",") << json_string(metric.name) << ":" << json_number(value->value);
      first = false;
    }
    out << "}}";
    first_port = false;
  }
  out << "\n]\n";
}

}  // namespace ibpm::tools
