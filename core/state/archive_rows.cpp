// SPDX-License-Identifier: MIT

#include "state/archive_rows.hpp"

#include <rrd.h>

#include <algorithm>
#include <charconv>
#include <cstdlib>
#include <optional>
#include <string_view>

#include "state/rrd_backend.hpp"
#include "state/rrd_layout.hpp"
#include "state/rrd_lock_wait.hpp"
#include "state/rrdcached_pipeline.hpp"
#include "state/state_error.hpp"

namespace ibpm::state {

namespace {

// "Key: value" -> value, or nullopt when the line is not that key's.
std::optional<std::string_view> field(std::string_view line, std::string_view key) {
  if (!line.starts_with(key) || line.size() < key.size() + 2 || line[key.size()] != ':')
    return std::nullopt;
  return line.substr(key.size() + 2);
}

unsigned long long number(std::string_view text, const std::string& file, std::string_view key) {
  unsigned long long value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc{} || end == text.data())
    throw StateError(file + ": FETCH answered a bad " + std::string(key));
  return value;
}

// FETCH's answer ("FlushVersion", "Start", "End", "Step", "DSCount", "DSName" lines, then one
// "TIME: V1 V2 ..." line per row) as rows; nullopt when the daemon has no such file. Throws
// StateError naming `file` for a refusal or an answer that is not FETCH's.
std::optional<FetchedRows> rows_from_fetch_answer(const std::string& file,
                                                  const DaemonAnswer& answer,
                                                  FetchSources sources) {
  if (answer.status < 0) {
    if (says_missing(answer.message)) return std::nullopt;
    throw StateError(file + ": cannot read its history through rrdcached: " + answer.message);
  }
  constexpr std::size_t kHeaderLines = 6;
  const auto bad = [&](const std::string& what) {
    return StateError(file + ": FETCH answered " + what);
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
  if (sources == FetchSources::port) check_sources(file, rows);
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

}  // namespace

void check_sources(const std::string& file, const FetchedRows& rows) {
  if (rows.sources != kSourceCount)
    throw StateError(file + ": not an ibpm port RRD (" + std::to_string(rows.sources) +
                     " data sources)");
  for (std::size_t i = 0; i < rows.sources; ++i)
    if (source_name(i) != rows.names[i])
      throw StateError(file + ": not an ibpm port RRD (data source " + rows.names[i] + ")");
}

std::time_t fetch_end(std::time_t start, std::time_t end) { return std::max(start + 1, end - 1); }

FetchedRows read_archive(const std::string& path, const char* cf, std::time_t start,
                         std::time_t end) {
  FetchedRows rows = read_any_archive(path, cf, start, end);
  check_sources(path, rows);
  return rows;
}

FetchedRows read_any_archive(const std::string& path, const char* cf, std::time_t start_time,
                             std::time_t end_time) {
  time_t start = start_time, end = fetch_end(start_time, end_time);
  unsigned long step = 0, sources = 0;
  char** names = nullptr;
  rrd_value_t* data = nullptr;
  const bool read = retry_while_locked([&] {
    start = start_time;
    end = fetch_end(start_time, end_time);
    return rrd_fetch_r(path.c_str(), cf, &start, &end, &step, &sources, &names, &data) == 0;
  });
  if (!read) {
    const char* reason = rrd_get_error();
    std::string text = reason && *reason ? reason : "librrd gave no reason";
    rrd_clear_error();
    throw StateError(path + kCannotReadHistory + text);
  }
  FetchedRows rows;
  rows.start = start;
  rows.end = end;
  rows.step = step;
  rows.sources = sources;
  for (unsigned long i = 0; i < sources; ++i) {
    rows.names.emplace_back(names[i]);
    rrd_freemem(names[i]);
  }
  rrd_freemem(names);
  rows.values.assign(data, data + rows.rows() * sources);
  rrd_freemem(data);
  return rows;
}

void fetch_through_daemon(const std::string& address, std::size_t count,
                          const std::function<void(std::size_t, std::string&)>& name_of,
                          const char* cf, std::time_t start, std::time_t end,
                          const std::function<void(std::size_t, FetchedRows&&)>& on_rows,
                          const std::function<void(std::size_t, const std::string&)>& on_error,
                          std::chrono::steady_clock::time_point deadline, FetchSources sources) {
  const std::string range =
      " " + std::to_string(start) + " " + std::to_string(fetch_end(start, end));
  in_slices(count, connections_for(count), [&](std::size_t begin, std::size_t slice_end) {
    std::size_t answered = begin;
    std::string name;
    try {
      pipeline(
          address, slice_end - begin,
          [&](std::size_t c, std::string& out) {
            out += "FETCH ";
            name.clear();
            name_of(begin + c, name);
            append_daemon_escaped(out, name);
            out += ' ';
            out += cf;
            out += range;
          },
          [&](std::size_t c, const DaemonAnswer& answer) {
            const std::size_t i = begin + c;
            answered = i + 1;
            std::string file;
            name_of(i, file);
            try {
              std::optional<FetchedRows> rows = rows_from_fetch_answer(file, answer, sources);
              if (rows) on_rows(i, std::move(*rows));  // none: no such file, no history
            } catch (const StateError& e) {
              on_error(i, e.what());
            }
          },
          deadline);
    } catch (const StateError& e) {
      for (std::size_t i = answered; i < slice_end; ++i) on_error(i, e.what());
    }
  });
}

}  // namespace ibpm::state
