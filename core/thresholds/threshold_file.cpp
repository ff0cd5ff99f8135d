// SPDX-License-Identifier: MIT
// Thresholds files, like the error-thresholds file of infiniband-diags' ibqueryerrors but with
// rates:
//
//   # metric          warning   critical
//   symbol_errors     10/h      100/h
//   link_downed       -         1/h
//   xmit_wait_pct     10        30
//
// One metric per line, fields separated by spaces or tabs, "-" for none; '#' starts a comment
// (also after the fields); blank lines are ignored; CRLF line ends and a UTF-8 byte order mark
// at the start are accepted. Later lines
// override earlier ones. A line with an unknown metric, a bad range, a rate unit on a
// percentage, or not exactly three fields is an error naming the file and line.
#include <fstream>
#include <stdexcept>
#include <vector>

#include "base/input_file.hpp"
#include "thresholds/rate_thresholds.hpp"

namespace ibpm::thresholds {
namespace {

constexpr std::string_view kUtf8Bom = "\xEF\xBB\xBF";

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }

std::vector<std::string_view> fields_of(std::string_view line) {
  line = line.substr(0, line.find('#'));
  std::vector<std::string_view> fields;
  std::size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && is_space(line[i])) ++i;
    const std::size_t start = i;
    while (i < line.size() && !is_space(line[i])) ++i;
    if (i > start) fields.push_back(line.substr(start, i - start));
  }
  return fields;
}

}  // namespace

void RateThresholds::load_stream(std::istream& in, const std::string& origin) {
  RateThresholds merged = *this;  // all or nothing
  std::string line;
  for (unsigned number = 1; std::getline(in, line); ++number) {
    if (number == 1 && line.starts_with(kUtf8Bom)) line.erase(0, kUtf8Bom.size());
    const std::vector<std::string_view> fields = fields_of(line);
    if (fields.empty()) continue;
    const std::string where = origin + ":" + std::to_string(number) + ": ";
    if (fields.size() != 3)
      throw std::runtime_error(where + "expected METRIC WARNING CRITICAL, found " +
                               std::to_string(fields.size()) + " field" +
                               (fields.size() == 1 ? "" : "s"));
    try {
      merged.set(fields[0], plugin::State::warning, fields[1]);
      merged.set(fields[0], plugin::State::critical, fields[2]);
    } catch (const std::invalid_argument& e) {
      throw std::runtime_error(where + e.what());
    }
  }
  if (in.bad()) throw std::runtime_error(origin + ": read error");
  *this = merged;
}

void RateThresholds::load_file(const std::string& path) {
  std::ifstream in = base::open_input_file(path);
  load_stream(in, path);
}

}  // namespace ibpm::thresholds
