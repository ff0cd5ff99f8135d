// SPDX-License-Identifier: MIT

#include "products/sample_csv.hpp"

#include <cstdio>
#include <stdexcept>

#include "base/csv.hpp"
#include "base/locked_append.hpp"
#include "base/number.hpp"
#include "products/metric_values.hpp"

namespace ibpm::products {

namespace {

using base::csv_field;
using base::csv_text;

std::string milliseconds(double epoch_seconds) {
  if (!(epoch_seconds > 0)) return "";
  char text[32];
  std::snprintf(text, sizeof text, "%.3f", epoch_seconds);
  return text;
}

std::string number(const std::optional<double>& value) {
  return value ? base::format_number(*value) : "";
}

std::string node_type(NodeType type) {
  switch (type) {
    case NodeType::sw:
      return "switch";
    case NodeType::ca:
      return "ca";
    case NodeType::router:
      return "router";
    case NodeType::unknown:
      break;
  }
  return "unknown";
}

std::string error_text(const poll::PortResult& result) {
  std::string text = result.sample.error;
  if (!result.state_error.empty()) {
    if (!text.empty()) text += "; ";
    text += "state: " + result.state_error;
  }
  return text;
}

std::string row(double sweep_start, const poll::PortResult& result, const std::string& shard) {
  const poll::PortTarget& target = *result.target;
  const poll::PortSample& sample = result.sample;
  const poll::PortRates& rates = result.rates;
  const bool has_rates = sample.answered && !rates.baseline;
  std::vector<std::string> fields{
      milliseconds(sweep_start),    milliseconds(sample.time),    format_guid(target.node),
      std::to_string(target.port),  node_type(target.type),       std::to_string(target.lid),
      csv_text(target.name),        csv_text(target.remote_name), sample.answered ? "1" : "0",
      csv_text(error_text(result)), sample.extended ? "1" : "0",
  };
  for (const auto& value : result.record->raw)
    fields.push_back(sample.answered && value ? std::to_string(*value) : "");
  for (const Metric& metric : port_metrics()) {
    if (metric.percent()) continue;
    const auto value = metric_value(metric, result);
    fields.push_back(value ? base::format_number(value->value) : "");
  }
  char mask[16];
  std::snprintf(mask, sizeof mask, "0x%x", static_cast<unsigned>(rates.saturated));
  fields.push_back(sample.answered ? mask : "");
  fields.push_back(has_rates ? number(rates.xmit_util_pct) : "");
  fields.push_back(has_rates ? number(rates.rcv_util_pct) : "");
  fields.push_back(has_rates ? number(rates.xmit_wait_pct) : "");
  fields.push_back(has_rates ? base::format_number(rates.interval) : "");
  fields.push_back(csv_field(shard));

  std::string line;
  for (std::size_t i = 0; i < fields.size(); ++i) {
    if (i) line += ',';
    line += fields[i];
  }
  return line + '\n';
}

}  // namespace

std::string sample_csv_header() {
  std::string header =
      "sweep_start,sample_time,node_guid,port,node_type,lid,port_name,remote_name,answered,error,"
      "extended";
  for (const counters::CounterSpec& s : counters::counter_specs())
    header += "," + std::string(s.key);
  for (const counters::CounterSpec& s : counters::counter_specs())
    header += "," + std::string(s.key) + "_per_s";
  return header + ",saturated_mask,xmit_util_pct,rcv_util_pct,xmit_wait_pct,interval_s,shard";
}

void append_samples_csv(const std::string& path, double sweep_start_epoch,
                        const std::vector<poll::PortResult>& results,
                        const std::string& shard_label) {
  const std::string header = sample_csv_header() + '\n';
  std::string rows;
  for (const poll::PortResult& result : results)
    rows += row(sweep_start_epoch, result, shard_label);

  base::LockedAppend file(path);
  // Decided under the lock: of two collectors starting a file, only one writes the header.
  if (file.size() == 0) {
    rows.insert(0, header);
  } else if (file.head(header.size()) != header) {
    throw std::runtime_error(path +
                             ": not a sample CSV with this column set (its first line "
                             "differs from the header); not appending to it");
  }
  file.append(rows);
}

}  // namespace ibpm::products
