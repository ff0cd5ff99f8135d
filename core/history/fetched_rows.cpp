// SPDX-License-Identifier: MIT

#include "history/fetched_rows.hpp"

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <string_view>

#include "state/rrd_backend.hpp"
#include "state/rrd_layout.hpp"
#include "state/state_error.hpp"

namespace ibpm::history {

namespace {

// "Key: value" -> value, or nullopt when the line is not that key's.
std::optional<std::string_view> field(std::string_view line, std::string_view key) {
  if (!line.starts_with(key) || line.size() < key.size() + 2 || line[key.size()] != ':')
    return std::nullopt;
  return line.substr(key.size() + 2);
}

unsigned long long number(std::string_view text, const std::string& file, std::string_view key) {
  char* end = nullptr;
  const std::string copy(text);
  const unsigned long long value = std::strtoull(copy.c_str(), &end, 10);
  if (end == copy.c_str())
    throw state::StateError(file + ": FETCH answered a bad " + std::string(key));
  return value;
}

}  // namespace

void check_sources(const std::string& file, const FetchedRows& rows) {
  if (rows.sources != state::kSourceCount)
    throw state::StateError(file + ": not an ibpm port RRD (" + std::to_string(rows.sources) +
                            " data sources)");
  for (std::size_t i = 0; i < rows.sources; ++i)
    if (state::source_name(i) != rows.names[i])
      throw state::StateError(file + ": not an ibpm port RRD (data source " + rows.names[i] + ")");
}

std::optional<FetchedRows> rows_from_fetch_answer(const std::string& file,
                                                  const state::DaemonAnswer& answer) {
  if (answer.status < 0) {
    if (state::says_missing(answer.message)) return std::nullopt;
    throw state::StateError(file +
                            ": cannot read its history through rrdcached: " + answer.message);
  }
  constexpr std::size_t kHeaderLines = 6;
  const auto bad = [&](const std::string& what) {
    return state::StateError(file + ": FETCH answered " + what);
  };
  if (answer.lines.size() < kHeaderLines) throw bad("too few lines");
  FetchedRows rows;
  const std::string_view keys[] = {"FlushVersion", "Start", "End", "Step", "DSCount", "DSName"};
  std::string_view values[kHeaderLines];
  for (std::size_t k = 0; k < kHeaderLines; ++k) {
    const auto value = field(answer.lines[k], keys[k]);
    if (!value) throw bad("no " + std::string(keys[k]));
    values[k] = *value;
  }
  rows.start = static_cast<std::time_t>(number(values[1], file, keys[1]));
  rows.end = static_cast<std::time_t>(number(values[2], file, keys[2]));
  rows.step = static_cast<unsigned long>(number(values[3], file, keys[3]));
  rows.sources = static_cast<std::size_t>(number(values[4], file, keys[4]));
  for (std::string_view names = values[5]; !names.empty();) {
    const std::size_t space = names.find(' ');
    rows.names.emplace_back(names.substr(0, space));
    names = space == std::string_view::npos ? std::string_view{} : names.substr(space + 1);
  }
  if (rows.names.size() != rows.sources)
    throw bad("DSCount " + std::to_string(rows.sources) + " with " +
              std::to_string(rows.names.size()) + " names");
  check_sources(file, rows);
  if (rows.step == 0 || rows.end < rows.start || answer.lines.size() != kHeaderLines + rows.rows())
    throw bad("rows that do not match its Start, End and Step");
  rows.values.reserve(rows.rows() * rows.sources);
  for (std::size_t r = kHeaderLines; r < answer.lines.size(); ++r) {
    const std::string& line = answer.lines[r];
    const std::size_t colon = line.find(':');
    if (colon == std::string::npos) throw bad("a row without its time");
    // The daemon writes each value as " %0.10e" or nan: from_chars reads both without the
    // locale and the copying of strtod, which cost more than the daemon's side of the FETCH.
    const char* at = line.data() + colon + 1;
    const char* const line_end = line.data() + line.size();
    for (std::size_t s = 0; s < rows.sources; ++s) {
      while (at < line_end && *at == ' ') ++at;
      double value = 0;
      const auto [end, error] = std::from_chars(at, line_end, value);
      if (error != std::errc{} || end == at) throw bad("a row with too few values");
      rows.values.push_back(value);
      at = end;
    }
  }
  return rows;
}

namespace {

// Whether the row's sample had PortXmitWait at its maximum: the saturated gauge's bit. A row
// consolidated from samples that differ holds no whole mask and says nothing.
bool xmit_wait_saturated(const FetchedRows& rows, std::size_t row) {
  const double mask = rows.value(row, state::source_index(state::Gauge::saturated));
  if (!std::isfinite(mask) || mask < 0 || mask > 4294967295.0 || mask != std::floor(mask))
    return false;
  return (static_cast<std::uint32_t>(mask) & counters::counter_bit(counters::Counter::xmit_wait)) !=
         0;
}

// The rows analyses judge one by one: the data and wait rates, and where the wait counter sat
// at its maximum.
PortHistory::Rows kept_rows(const FetchedRows& average) {
  PortHistory::Rows kept;
  kept.start = average.start;
  kept.step = static_cast<std::time_t>(average.step);
  const std::size_t rows = average.rows();
  auto series = [&](counters::Counter c, std::vector<float>& out) {
    out.resize(rows);
    for (std::size_t r = 0; r < rows; ++r)
      out[r] = static_cast<float>(average.value(r, state::source_index(c)));
  };
  series(counters::Counter::xmit_data, kept.xmit_data);
  series(counters::Counter::rcv_data, kept.rcv_data);
  series(counters::Counter::xmit_wait, kept.xmit_wait);
  for (std::size_t r = 0; r < rows; ++r)
    if (xmit_wait_saturated(average, r)) {
      kept.xmit_wait_saturated.resize(rows);
      kept.xmit_wait_saturated[r] = true;
    }
  return kept;
}

}  // namespace

PortHistory history_from(const FetchedRows& average, const FetchedRows* peak, bool keep_rows) {
  PortHistory history;
  const std::size_t rows = average.rows();
  history.step = static_cast<std::time_t>(average.step);
  for (std::size_t r = 0; r < rows && !history.xmit_wait_saturated; ++r)
    history.xmit_wait_saturated = xmit_wait_saturated(average, r);
  if (keep_rows) history.rows = kept_rows(average);
  // A row is covered when its data rate is known (every counter of a row is known or none).
  const std::size_t data = state::source_index(counters::Counter::xmit_data);
  for (std::size_t r = 0; r < rows; ++r)
    if (!std::isnan(average.value(r, data))) history.covered += history.step;
  for (std::size_t c = 0; c < counters::kCounterCount; ++c) {
    const std::size_t source = state::source_index(static_cast<counters::Counter>(c));
    double sum = 0;
    std::size_t n = 0;
    for (std::size_t r = 0; r < rows; ++r) {
      const double v = average.value(r, source);
      if (std::isnan(v)) continue;
      sum += v;
      ++n;
    }
    if (n > 0) {
      history.average[c] = sum / static_cast<double>(n);
      history.found = true;
    }
    if (!peak) continue;
    std::optional<double> top;
    for (std::size_t r = 0; r < peak->rows(); ++r) {
      const double v = peak->value(r, source);
      if (!std::isnan(v) && (!top || v > *top)) top = v;
    }
    history.peak[c] = top;
  }
  return history;
}

}  // namespace ibpm::history
