// SPDX-License-Identifier: MIT

#include "products/openmetrics_merge.hpp"

#include <fstream>
#include <set>
#include <sstream>
#include <string_view>
#include <vector>

#include "base/atomic_file.hpp"
#include "base/file_lock.hpp"

namespace ibpm::products {

namespace merge_text {

struct MetricFamily {
  std::string name;
  std::vector<std::string> header;   // its # HELP and # TYPE lines
  std::vector<std::string> samples;  // in the order written
};

// The metric name of a "# HELP NAME ..." or "# TYPE NAME ..." line, empty for other comments.
std::string_view described_name(std::string_view line) {
  if (!line.starts_with("# HELP ") && !line.starts_with("# TYPE ")) return {};
  line.remove_prefix(7);
  return line.substr(0, line.find(' '));
}

// `NAME{node_guid="...",port="..."`'s labels, which name the port a sample is of; empty for the
// sweep's own figures (no node_guid first).
std::string_view port_key(std::string_view sample) {
  const auto brace = sample.find('{');
  if (brace == std::string_view::npos) return {};
  std::string_view labels = sample.substr(brace + 1);
  if (!labels.starts_with("node_guid=\"")) return {};
  const auto port = labels.find("\",port=\"");
  if (port == std::string_view::npos) return {};
  const auto end = labels.find('"', port + 8);
  if (end == std::string_view::npos) return {};
  return labels.substr(0, end + 1);
}

std::vector<MetricFamily> families_of(const std::string& text) {
  std::vector<MetricFamily> families;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    if (line.empty()) continue;
    if (line.front() == '#') {
      const std::string_view name = described_name(line);
      if (name.empty()) continue;
      if (families.empty() || families.back().name != name || !families.back().samples.empty())
        families.push_back(MetricFamily{std::string(name), {}, {}});
      families.back().header.push_back(line);
      continue;
    }
    if (families.empty()) families.push_back(MetricFamily{});  // samples before any HELP or TYPE
    families.back().samples.push_back(line);
  }
  return families;
}

}  // namespace merge_text

using merge_text::families_of;
using merge_text::MetricFamily;
using merge_text::port_key;

std::string merge_openmetrics(const std::string& sweep_text, const std::string& repoll_text) {
  std::vector<MetricFamily> merged = families_of(sweep_text);
  const std::vector<MetricFamily> fresh = families_of(repoll_text);
  std::set<std::string, std::less<>> replaced;
  for (const MetricFamily& family : fresh)
    for (const std::string& sample : family.samples)
      if (const std::string_view key = port_key(sample); !key.empty()) replaced.emplace(key);
  for (MetricFamily& family : merged)
    std::erase_if(family.samples, [&](const std::string& sample) {
      const std::string_view key = port_key(sample);
      return !key.empty() && replaced.contains(key);
    });
  for (const MetricFamily& family : fresh) {
    std::vector<std::string> ports;
    for (const std::string& sample : family.samples)
      if (!port_key(sample).empty()) ports.push_back(sample);
    if (ports.empty()) continue;
    MetricFamily* into = nullptr;
    for (MetricFamily& candidate : merged)
      if (candidate.name == family.name && !family.name.empty()) into = &candidate;
    if (!into) {
      merged.push_back(MetricFamily{family.name, family.header, {}});
      into = &merged.back();
    }
    into->samples.insert(into->samples.end(), ports.begin(), ports.end());
  }
  std::string text;
  for (const MetricFamily& family : merged) {
    for (const std::string& line : family.header) text += line + "\n";
    for (const std::string& line : family.samples) text += line + "\n";
  }
  return text;
}

void merge_openmetrics_file(const std::string& path, const std::string& repoll_text) {
  // A sweep replacing the file between this read and this write would lose its whole rewrite.
  const base::FileLock lock(path);
  std::string current;
  if (std::ifstream in{path}) {
    std::ostringstream whole;
    whole << in.rdbuf();
    current = whole.str();
  }
  const std::string text = merge_openmetrics(current, repoll_text);
  base::replace_file_with(path, [&](std::ostream& out) { out << text; });
}

}  // namespace ibpm::products
