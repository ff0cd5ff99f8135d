// SPDX-License-Identifier: MIT
// The per-subtree aggregate files of PortStore (port_store.hpp): written once per sweep, read by
// ibpm-locality instead of every port's file.

#include <sys/stat.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <mutex>
#include <string_view>

#include "layout/state_layout.hpp"
#include "state/archive_rows.hpp"
#include "state/directories.hpp"
#include "state/port_store.hpp"
#include "state/rrdcached_batch.hpp"
#include "state/rrdcached_pipeline.hpp"
#include "state/state_error.hpp"

namespace ibpm::state {

namespace {

bool file_there(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0;
}

// "TIME:GEN:CON:OUT:IN:DIRECTIONS", the time with milliseconds, the sums as exact as text gets.
std::string aggregate_line(double time, const PortStore::AggregateWrite& write) {
  char text[64];
  std::snprintf(text, sizeof text, "%.3f", time);
  std::string line = text;
  for (const double value : write.values) {
    if (std::isfinite(value))
      std::snprintf(text, sizeof text, ":%.17g", value);
    else
      std::snprintf(text, sizeof text, ":U");
    line += text;
  }
  return line;
}

constexpr const char* kNotAggregate = "not an ibpm aggregate RRD";

bool aggregate_sources(const FetchedRows& rows) {
  bool ours = rows.sources == kAggregateSourceCount && rows.names.size() == rows.sources;
  for (std::size_t i = 0; ours && i < rows.sources; ++i)
    ours = rows.names[i] == aggregate_source_name(static_cast<AggregateSource>(i));
  return ours;
}

}  // namespace

std::string PortStore::aggregate_path(const std::string& scope, const std::string& name) const {
  return files_.aggregate(scope, name);
}

std::string PortStore::aggregate_rrd_name(const std::string& scope, const std::string& name) const {
  return central_ ? layout::StateLayout::relative_aggregate(scope, name)
                  : aggregate_path(scope, name);
}

std::vector<std::string> PortStore::write_aggregates(const std::string& scope, double time,
                                                     const std::vector<AggregateWrite>& writes,
                                                     std::chrono::milliseconds timeout) const {
  std::vector<std::string> errors(writes.size());
  const auto step = static_cast<unsigned long>(options_.layout.step.count());
  const auto start = static_cast<std::time_t>(std::floor(time)) - 1;
  const std::vector<std::string> definitions = aggregate_definitions(options_.layout);
  const auto make = [&](const std::string& file) {
    backend_.create(file, definitions, step, start);
  };
  if (!uses_daemon()) {
    try {
      make_directories(files_.aggregate_scope_dir(scope), FolderSharing::parent_group);
    } catch (const StateError& e) {
      errors.assign(writes.size(), e.what());
      return errors;
    }
    for (std::size_t i = 0; i < writes.size(); ++i) {
      const std::string file = aggregate_rrd_name(scope, writes[i].name);
      try {
        if (!file_there(file)) make(file);
        backend_.update(file, aggregate_line(time, writes[i]));
      } catch (const StateError& e) {
        errors[i] = e.what();
      }
    }
    return errors;
  }
  // Through the daemon: every update in one BATCH, and a file the daemon says is missing made
  // then (its folder too on this host; a central store's daemon makes its own), so that a steady
  // sweep asks nothing of this host's file system.
  bool folder_made = central_;
  const auto update_at = [&](std::size_t k, BatchUpdate& update) {
    update.path += aggregate_rrd_name(scope, writes[k].name);
    update.line += aggregate_line(time, writes[k]);
  };
  try {
    for (const auto& [index, reason] :
         batch_update(backend_.daemon_address(), writes.size(), update_at, timeout)) {
      if (index >= writes.size()) continue;
      const std::string file = aggregate_rrd_name(scope, writes[index].name);
      try {
        if (!says_missing(reason)) throw StateError(file + ": " + reason);
        if (!folder_made) {
          make_directories(files_.aggregate_scope_dir(scope), FolderSharing::parent_group);
          folder_made = true;
        }
        make(file);
        backend_.update(file, aggregate_line(time, writes[index]));
      } catch (const StateError& e) {
        errors[index] = e.what();
      }
    }
  } catch (const StateError& e) {
    errors.assign(writes.size(), e.what());
  }
  return errors;
}

// The scopes of a central store: its aggregates folder listed by the daemon (LIST, which its -P
// must allow), one name a line; none before a sweep has made the folder.
std::vector<std::string> PortStore::central_aggregate_scopes(
    std::chrono::milliseconds timeout) const {
  std::vector<std::string> scopes;
  const std::string folder = layout::StateLayout::relative_aggregates_dir();
  pipeline(
      daemon_address(), 1, [&](std::size_t, std::string& out) { out += "LIST /" + folder; },
      [&](std::size_t, const DaemonAnswer& answer) {
        if (answer.status < 0 && answer.message.find("No such file") != std::string::npos) return;
        if (answer.status < 0)
          throw StateError("rrdcached at " + daemon_address() + " does not list " + folder +
                           " (LIST allowed in its -P?): " + answer.message);
        for (const std::string& entry : answer.lines)
          if (!entry.empty() && !entry.ends_with(layout::StateLayout::kAggregateExtension))
            scopes.push_back(entry);
      },
      std::chrono::steady_clock::now() + timeout);
  std::sort(scopes.begin(), scopes.end());
  return scopes;
}

std::vector<std::string> PortStore::aggregate_scopes(std::chrono::milliseconds timeout) const {
  if (central_) return central_aggregate_scopes(timeout);
  std::vector<std::string> scopes;
  std::error_code error;
  for (const auto& entry : std::filesystem::directory_iterator(files_.aggregates_dir(), error))
    if (entry.is_directory(error)) scopes.push_back(entry.path().filename().string());
  std::sort(scopes.begin(), scopes.end());
  return scopes;
}

void PortStore::read_aggregates(
    std::size_t count,
    const std::function<std::pair<const std::string*, const std::string*>(std::size_t)>& name_of,
    const char* cf, std::time_t start, std::time_t end,
    const std::function<void(std::size_t, FetchedRows&&)>& on_rows,
    std::chrono::milliseconds timeout) const {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  if (central_) {
    // The store's host reads them (FETCH: its pending updates first); a file it lacks is absent.
    // The answers come on the connections' threads: one at a time to the caller.
    std::string failure;
    std::mutex lock;
    const auto fail = [&](std::size_t i, const std::string& reason) {
      const auto [scope, name] = name_of(i);
      const std::lock_guard<std::mutex> hold(lock);
      if (failure.empty()) failure = aggregate_rrd_name(*scope, *name) + ": " + reason;
    };
    fetch_through_daemon(
        daemon_address(), count,
        [&](std::size_t i, std::string& out) {
          const auto [scope, name] = name_of(i);
          out += aggregate_rrd_name(*scope, *name);
        },
        cf, start, end,
        [&](std::size_t i, FetchedRows&& rows) {
          if (!aggregate_sources(rows)) return fail(i, kNotAggregate);
          const std::lock_guard<std::mutex> hold(lock);
          on_rows(i, std::move(rows));
        },
        fail, deadline, FetchSources::any);
    if (!failure.empty()) throw StateError(failure);
    return;
  }
  std::vector<std::string> paths(count);
  std::vector<std::size_t> present;
  for (std::size_t i = 0; i < count; ++i) {
    const auto [scope, name] = name_of(i);
    paths[i] = aggregate_path(*scope, *name);
    if (file_there(paths[i])) present.push_back(i);
  }
  if (uses_daemon()) {
    std::string failure;
    flush_files(
        daemon_address(), present.size(),
        [&](std::size_t k, std::string& out) { out += paths[present[k]]; },
        [&](std::size_t k, const FlushResult& result) {
          if (!result.error.empty() && failure.empty())
            failure = paths[present[k]] + ": " + result.error;
        },
        deadline);
    if (!failure.empty()) throw StateError(failure);
  }
  for (const std::size_t i : present) {
    FetchedRows rows = read_any_archive(paths[i], cf, start, end);
    if (!aggregate_sources(rows)) throw StateError(paths[i] + ": " + kNotAggregate);
    on_rows(i, std::move(rows));
  }
}

}  // namespace ibpm::state
